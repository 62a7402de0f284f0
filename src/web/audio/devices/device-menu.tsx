import { HeadphonesIcon } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { Button } from '../../components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '../../components/ui/popover';
import { IconTooltip } from '../../components/ui/tooltip';
import { useAudioDevices } from './media-devices';
import { useDeviceWatch } from './use-device-watch';

// The pickers are Radix Selects (about 25 kB gzip): fetched when the menu first opens, not with the
// signed-in frame every page loads (decision 021).
const DevicePicker = lazy(() => import('./device-picker').then(({ DevicePicker }) => ({ default: DevicePicker })));

/** The call screen's device menu (docs/product.md "Devices"): another microphone or speaker, switched without leaving the call. */
export function DeviceMenu() {
  const { devices } = useAudioDevices();
  useDeviceWatch();
  return (
    <Popover>
      <IconTooltip label="Audio devices">
        <PopoverTrigger asChild>
          <Button variant="outline" size="icon" aria-label="Audio devices">
            <HeadphonesIcon aria-hidden="true" />
          </Button>
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
