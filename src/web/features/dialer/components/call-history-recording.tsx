import { DownloadIcon, Trash2Icon } from 'lucide-react';
import { useId } from 'react';
import { toast } from '../../../lib/toast';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { Button } from '../../../components/ui/button';
import { withErrorReference } from '../../../lib/error-reference';
import { recordingAudioUrl, useDeleteRecording } from '../api/delete-recording';

/**
 * A recorded call's section of Call History: the audio (fetched only when played; the browser asks
 * for byte ranges, so seeking works), a download link and deletion after a confirmation.
 */
export function CallHistoryRecording({ recordingId, callName }: { recordingId: string; callName: string }) {
  const deleteRecording = useDeleteRecording();
  const headingId = useId();

  return (
    <section aria-labelledby={headingId} className="flex basis-full flex-col gap-2 rounded-md border bg-muted/30 p-3">
      <h3 id={headingId} className="text-sm font-medium">
        Recording
      </h3>
      <audio controls preload="none" className="w-full max-w-md" src={recordingAudioUrl(recordingId)} aria-label={`Recording of the ${callName}`} />
      <div className="flex flex-wrap gap-2">
        <Button asChild variant="outline" size="sm">
          <a href={recordingAudioUrl(recordingId, { download: true })} download aria-label={`Download recording of the ${callName}`}>
            <DownloadIcon aria-hidden="true" />
            Download recording
          </a>
        </Button>
        <ConfirmDialog
          trigger={
            <Button variant="outline-destructive" size="sm" aria-label={`Delete recording of the ${callName}`}>
              <Trash2Icon aria-hidden="true" />
              Delete recording
            </Button>
          }
          title="Delete this recording?"
          description={`The recording of the ${callName} is removed for good. The call stays in your history.`}
          confirmLabel="Delete recording"
          pending={deleteRecording.isPending}
          onConfirm={(close) =>
            deleteRecording.mutate(recordingId, {
              onSuccess: () => toast.success('Recording deleted'),
              onError: (error) => toast.error('Failed to delete recording', { description: withErrorReference(error.message, error) }),
              onSettled: close,
            })
          }
          onDismiss={deleteRecording.reset}
        />
      </div>
    </section>
  );
}
