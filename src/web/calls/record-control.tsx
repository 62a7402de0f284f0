import { useQuery } from '@tanstack/react-query';
import { CircleIcon, SquareIcon } from 'lucide-react';
import { useId } from 'react';
import { RECORDING_PLAN_REQUIRED_MESSAGE } from '../../common/api/recordings';
import { plans } from '../../common/plans';
import { Button } from '../components/ui/button';
import { subscriptionQuery } from '../lib/subscription';
import type { CallSnapshot } from './call-snapshot';
import type { ElapsedSecondsStore } from './elapsed-seconds';
import { useElapsedSeconds } from './use-elapsed-seconds';

/** 02:05: how long the recording has run. */
function minutesAndSeconds(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  return `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
}

/**
 * Recording during a call (docs/calls.md#recording): the Record / Stop recording toggle, disabled
 * with the plans that unlock it on Free; a red "Recording" badge with its time while this user
 * records; and "This call is being recorded" when the other side does. Screen readers hear each
 * change once, not every second of the time.
 */
export function RecordControl({ call, elapsed, onToggle }: { call: CallSnapshot; elapsed: ElapsedSecondsStore; onToggle: () => void }) {
  const descriptionId = useId();
  const subscription = useQuery(subscriptionQuery);
  const elapsedSec = useElapsedSeconds(elapsed);
  const allowed = subscription.data ? plans[subscription.data.tier].recording : false;
  const recording = call.recordingSince !== null;
  const connected = call.phase === 'active' && call.callId !== null;
  // Both times are the server's, so the recording's time follows the call's own tick.
  const recordedSec = recording && call.answeredAt !== null ? elapsedSec - (call.recordingSince! - call.answeredAt) / 1000 : 0;
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-center gap-2">
        <Button
          variant={recording ? 'destructive' : 'outline'}
          size="sm"
          aria-pressed={recording}
          aria-describedby={subscription.data && !allowed ? descriptionId : undefined}
          onClick={onToggle}
          disabled={!connected || !allowed}
        >
          {recording ? <SquareIcon aria-hidden="true" /> : <CircleIcon aria-hidden="true" />}
          {recording ? 'Stop recording' : 'Record'}
        </Button>
        {recording && (
          <span aria-hidden="true" className="inline-flex items-center gap-1 rounded-md bg-red-600 px-2 py-0.5 text-xs font-semibold text-white tabular-nums">
            <CircleIcon className="size-2 fill-current" />
            Recording {minutesAndSeconds(recordedSec)}
          </span>
        )}
      </div>
      {subscription.data && !allowed && (
        <p id={descriptionId} className="text-xs text-muted-foreground">
          {RECORDING_PLAN_REQUIRED_MESSAGE}
        </p>
      )}
      <p role="status" className="text-xs font-medium text-red-600 dark:text-red-400">
        <span className="sr-only">{recording ? 'Recording this call' : ''}</span>
        {call.recordedByOther ? 'This call is being recorded' : ''}
      </p>
    </div>
  );
}
