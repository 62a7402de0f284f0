import { PhoneOffIcon } from 'lucide-react';
import { toast } from '../../../lib/toast';
import type { OwnedNumber } from '../../../../common/api/numbers';
import { formatPhoneNumber } from '../../../../common/phone';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { Button } from '../../../components/ui/button';
import { IconTooltip } from '../../../components/ui/tooltip';
import { useReleaseNumber } from '../api/release-number';
import { FailureAlert } from './failure-alert';

/** Beyond the prototype (docs/product.md §2): gives a rented number back, after a confirmation. */
export function ReleaseNumberDialog({ number }: { number: OwnedNumber }) {
  const release = useReleaseNumber();
  const formatted = formatPhoneNumber(number.phoneNumber);

  return (
    <ConfirmDialog
      trigger={
        <IconTooltip label={`Release ${formatted}`}>
          <Button variant="ghost-destructive" size="icon" aria-label={`Release ${formatted}`}>
            <PhoneOffIcon aria-hidden="true" />
          </Button>
        </IconTooltip>
      }
      title={`Release ${formatted}?`}
      description="The number goes back to the carrier: you can no longer call from it or receive calls on it, and someone else may rent it."
      confirmLabel="Release"
      pending={release.isPending}
      onConfirm={(close) =>
        release.mutate(number.id, {
          onSuccess: () => {
            close();
            toast.success('Number released', { description: formatted });
          },
        })
      }
      onDismiss={release.reset}
    >
      <FailureAlert title="Failed to release number" error={release.error} />
    </ConfirmDialog>
  );
}
