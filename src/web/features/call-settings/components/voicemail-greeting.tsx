import { useQuery } from '@tanstack/react-query';
import { MicIcon, SquareIcon } from 'lucide-react';
import { useId } from 'react';
import { toast } from '../../../lib/toast';
import { VOICEMAIL_GREETING_MAX_SEC } from '../../../../common/api/voicemail';
import { FormAlert } from '../../../components/form-alert';
import { LoadFailed } from '../../../components/load-failed';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '../../../components/ui/card';
import { GREETING_AUDIO_URL, useResetGreeting, voicemailGreetingQuery } from '../api/voicemail-greeting';
import { useGreetingRecorder } from '../hooks/use-greeting-recorder';

/** docs/product.md §2 Call Receiver tab: what callers hear before the beep, recorded here or the default one. */
export function VoicemailGreeting() {
  const titleId = useId();
  const greeting = useQuery(voicemailGreetingQuery);
  const recorder = useGreetingRecorder();
  const reset = useResetGreeting();
  const busy = recorder.phase !== 'idle' || reset.isPending;

  function restoreDefault() {
    reset.mutate(undefined, { onSuccess: () => toast.success('Callers now hear the default greeting') });
  }

  return (
    <Card aria-labelledby={titleId}>
      <CardHeader>
        <h3 id={titleId} className="text-lg font-semibold leading-none">
          Voicemail greeting
        </h3>
        <CardDescription>
          Callers hear it when you do not answer, then a beep, and may leave a message of up to 2 minutes. Record your own of up to {VOICEMAIL_GREETING_MAX_SEC} seconds.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {greeting.isPending ? (
          <p role="status" className="text-muted-foreground">
            Loading your greeting...
          </p>
        ) : greeting.isError ? (
          <LoadFailed message="Failed to load your greeting" reason={greeting.error.message} onRetry={() => void greeting.refetch()} retrying={greeting.isFetching} />
        ) : (
          <>
            <p className="font-medium">{greeting.data.custom ? `Your greeting (${Math.round(greeting.data.durationSec)} s)` : 'Default greeting'}</p>
            <audio
              controls
              preload="none"
              className="w-full max-w-md"
              // The address changes with the greeting, so a new one is not played from the cache.
              src={`${GREETING_AUDIO_URL}?v=${encodeURIComponent(greeting.data.updatedAt ?? 'default')}`}
              aria-label={greeting.data.custom ? 'Play your greeting' : 'Play the default greeting'}
            />
          </>
        )}
        <div className="flex flex-wrap items-center gap-2">
          {recorder.phase === 'recording' ? (
            <Button variant="destructive" onClick={recorder.stop}>
              <SquareIcon aria-hidden="true" />
              Stop
            </Button>
          ) : (
            <Button onClick={recorder.record} disabled={busy} aria-busy={recorder.phase === 'starting' || recorder.phase === 'saving'}>
              <MicIcon aria-hidden="true" />
              Record greeting
            </Button>
          )}
          {greeting.data?.custom && (
            <Button variant="outline" onClick={restoreDefault} disabled={busy} aria-busy={reset.isPending}>
              Use default greeting
            </Button>
          )}
        </div>
        <div className="flex gap-1 text-sm text-muted-foreground">
          <p role="status">{recorder.phase === 'recording' ? 'Recording... speak now.' : recorder.phase === 'saving' ? 'Saving your greeting...' : ''}</p>
          {recorder.phase === 'recording' && (
            // Outside the status: a timer is there to be read, not announced each second.
            <p role="timer" className="tabular-nums">
              {recorder.secondsLeft} s left
            </p>
          )}
        </div>
        <FormAlert title="Greeting not saved" message={recorder.problem ?? undefined} />
        <FormAlert title="Default greeting not restored" message={reset.error?.message} />
      </CardContent>
    </Card>
  );
}
