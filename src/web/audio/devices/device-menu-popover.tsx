import { lazy, Suspense, useState } from 'react';
import { Popover, PopoverContent, PopoverTrigger } from '../../components/ui/popover';
import { IconTooltip } from '../../components/ui/tooltip';
import { useAudioDevices } from './media-devices';
import { DeviceMenuButton } from './device-menu-button';

// The pickers are Radix Selects (about 25 kB gzip): fetched when the menu first opens, not with the
// signed-in frame every page loads (decision 021).
const DevicePicker = lazy(() => import('./device-picker').then(({ DevicePicker }) => ({ default: DevicePicker })));

/** The device menu's popover, loaded after the call screen shows (device-menu.tsx): `initiallyOpen` when its button was pressed before. */
export default function DeviceMenuPopover({ initiallyOpen }: { initiallyOpen: boolean }) {
  const { devices } = useAudioDevices();
  const [open, setOpen] = useState(initiallyOpen);
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <IconTooltip label="Audio devices">
        <PopoverTrigger asChild>
          <DeviceMenuButton />
        </PopoverTrigger>
      </IconTooltip>
      <PopoverContent aria-label="Audio devices" className="flex w-80 flex-col gap-4">
        {devices === null ? (
          <LookingForDevices />
        ) : (
          <Suspense fallback={<LookingForDevices />}>
            <DevicePicker role="microphone" devices={devices} />
            <DevicePicker role="speaker" devices={devices} />
          </Suspense>
        )}
      </PopoverContent>
    </Popover>
  );
}

function LookingForDevices() {
  return <p role="status">Looking for audio devices...</p>;
}
