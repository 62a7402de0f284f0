import { useId } from 'react';
import { toast } from '../../../lib/toast';
import type { Voicemail } from '../../../../common/api/voicemail';
import { formatDuration } from '../../../../common/calls';
import { formatPhoneNumber } from '../../../../common/phone';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { withErrorReference } from '../../../lib/error-reference';
import { cn } from '../../../lib/utils';
import { voicemailElementId } from '../../../lib/voicemail-query';
import { useMarkVoicemail } from '../api/voicemail-mutations';
import { DeleteVoicemailDialog } from './delete-voicemail-dialog';

/** The audio, or why there is none. */
function MessageAudio({ message, caller, onPlay }: { message: Voicemail; caller: string; onPlay: () => void }) {
  if (message.state === 'failed') return <p className="text-sm text-destructive">This message could not be saved.</p>;
  if (message.state === 'recording') return <p className="text-sm text-muted-foreground">The caller is still speaking...</p>;
  return (
    <audio
      controls
      preload="none"
      className="w-full max-w-md"
      src={`/api/v1/voicemail/${encodeURIComponent(message.id)}/audio`}
      aria-label={`Message from ${caller}`}
      onPlay={onPlay}
    />
  );
}

/** One message: who called, when, how long; playing it marks it heard. */
export function VoicemailItem({ message, contactName, targeted }: { message: Voicemail; contactName: string | null; targeted: boolean }) {
  const mark = useMarkVoicemail();
  const titleId = useId();
  const number = formatPhoneNumber(message.from);
  const caller = contactName ?? number;

  function setHeard(heard: boolean) {
    mark.mutate(
      { id: message.id, heard },
      { onError: (error) => toast.error(heard ? 'Failed to mark as heard' : 'Failed to mark as unheard', { description: withErrorReference(error.message, error) }) },
    );
  }

  return (
    <li
      id={voicemailElementId(message.id)}
      aria-labelledby={titleId}
      data-heard={message.heard}
      className={cn('flex flex-col gap-3 rounded-lg border p-4', !message.heard && 'border-l-4 border-l-primary bg-primary/5', targeted && 'ring-2 ring-ring')}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="flex min-w-0 flex-col">
          {/* One name, not text and a hidden span: browsers join those with a space before the comma. */}
          <h2 id={titleId} className={cn('truncate', message.heard ? 'font-medium' : 'font-semibold')} aria-label={message.heard ? undefined : `${caller}, unheard`}>
            {caller}
          </h2>
          {contactName && <span className="text-sm tabular-nums text-muted-foreground">{number}</span>}
          <span className="text-xs text-muted-foreground">
            <time dateTime={message.createdAt}>{new Date(message.createdAt).toLocaleString()}</time> · {formatDuration(message.durationSec)}
          </span>
        </div>
        {!message.heard && (
          <Badge aria-hidden="true" data-status="unheard">
            Unheard
          </Badge>
        )}
      </div>
      <MessageAudio message={message} caller={caller} onPlay={() => (message.heard || mark.isPending ? undefined : setHeard(true))} />
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={() => setHeard(!message.heard)} disabled={mark.isPending} aria-busy={mark.isPending}>
          {message.heard ? 'Mark as unheard' : 'Mark as heard'}
        </Button>
        <DeleteVoicemailDialog message={message} caller={caller} />
      </div>
    </li>
  );
}
