import { HeadphonesIcon } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '../../components/ui/popover';
import { IconTooltip } from '../../components/ui/tooltip';
import { DevicePicker } from './device-picker';
import { useAudioDevices } from './media-devices';
import { useDeviceWatch } from './use-device-watch';

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
          <p role="status">Looking for audio devices...</p>
        ) : (
          <>
            <DevicePicker role="microphone" devices={devices} />
            <DevicePicker role="speaker" devices={devices} />
          </>
        )}
      </PopoverContent>
    </Popover>
  );
}
