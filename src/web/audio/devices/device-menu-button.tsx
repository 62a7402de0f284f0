import { HeadphonesIcon } from 'lucide-react';
import type { ComponentProps } from 'react';
import { Button } from '../../components/ui/button';

/** The device menu's icon button, named "Audio devices". */
export function DeviceMenuButton(props: ComponentProps<typeof Button>) {
  return (
    <Button variant="outline" size="icon" aria-label="Audio devices" {...props}>
      <HeadphonesIcon aria-hidden="true" />
    </Button>
  );
}
