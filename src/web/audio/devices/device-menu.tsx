import { lazy, Suspense, useState } from 'react';
import { IconTooltip } from '../../components/ui/tooltip';
import { DeviceMenuButton } from './device-menu-button';
import { useDeviceWatch } from './use-device-watch';

// Its popover (Radix's popover, popper and floating-ui, about 11 kB) loads as the call screen shows, not before it (decision 041).
const DeviceMenuPopover = lazy(() => import('./device-menu-popover'));

/**
 * The call screen's device menu (docs/product.md "Devices"): another microphone or speaker, switched
 * without leaving the call. Its button shows at once; a press before the popover has loaded opens it when it has.
 */
export function DeviceMenu() {
  useDeviceWatch();
  const [pressed, setPressed] = useState(false);
  const button = (
    <IconTooltip label="Audio devices">
      <DeviceMenuButton aria-busy={pressed || undefined} onClick={() => setPressed(true)} />
    </IconTooltip>
  );
  return (
    <Suspense fallback={button}>
      <DeviceMenuPopover initiallyOpen={pressed} />
    </Suspense>
  );
}
