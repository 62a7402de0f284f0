import { useQuery } from '@tanstack/react-query';
import { PhoneCallIcon, PhoneIncomingIcon, PhoneOutgoingIcon, VoicemailIcon } from 'lucide-react';
import { Link } from 'react-router-dom';
import type { CallRecord } from '../../../../common/api/calls';
import type { OwnedNumber } from '../../../../common/api/numbers';
import { VOICEMAIL_ANSWERED } from '../../../../common/api/voicemail';
import { formatDuration } from '../../../../common/calls';
import { mediaTransportLabels } from '../../../../common/media';
import { Badge } from '../../../components/ui/badge';
import { LoadFailed } from '../../../components/load-failed';
import { Button } from '../../../components/ui/button';
import { IconTooltip } from '../../../components/ui/tooltip';
import { usePhoneLibrary } from '../../../lib/phone-library';
import { phoneNumbersQuery } from '../../../lib/phone-numbers';
import { voicemailHref } from '../../../lib/voicemail-query';
import { callHistoryQuery } from '../../../calls/call-history-query';
import { voiceLabel } from '../../../calls/voice-label';
import { describeMediaFigures } from './call-history-figures';
import { CallHistoryLoading } from './call-history-loading';
import { CallHistoryRecording } from './call-history-recording';

type HistoryStatus = 'completed' | 'missed' | 'pending';

/** docs/product.md §3: completed, missed, and anything else styled as pending. */
function statusOf(call: CallRecord): { status: HistoryStatus; label: string } {
  if (call.state !== 'ended') return { status: 'pending', label: 'In progress' };
  // A placed call the callee's voicemail took (docs/calls.md#voicemail).
  if (call.outcome === 'completed' && call.direction === 'outbound' && call.reason === VOICEMAIL_ANSWERED) return { status: 'completed', label: 'Voicemail' };
  if (call.outcome === 'completed') return { status: 'completed', label: 'Completed' };
  // A received call that was not answered, for whatever reason, is a missed call.
  if (call.direction === 'inbound') return { status: 'missed', label: 'Missed' };
  const labels: Record<string, string> = { 'no-answer': 'No answer', busy: 'Busy', unavailable: 'Unavailable', failed: 'Failed', cancelled: 'Cancelled', rejected: 'Declined' };
  return { status: 'pending', label: labels[call.outcome ?? ''] ?? 'Ended' };
}

const statusClass: Record<HistoryStatus, string> = {
  completed: 'border-transparent bg-green-600/15 text-green-700 dark:text-green-400',
  missed: 'border-transparent bg-red-600/15 text-red-700 dark:text-red-400',
  pending: 'border-transparent bg-amber-500/15 text-amber-700 dark:text-amber-400',
};

/**
 * The user's own number on this call when it no longer takes calls: released (its row is gone, so
 * it is not among the user's numbers) or not routed to Voxline. Null while the numbers are unknown.
 */
function inactiveLine(call: CallRecord, owned: OwnedNumber[] | undefined): string | null {
  if (!owned) return null;
  const line = call.direction === 'outbound' ? call.from : call.to;
  return owned.find((number) => number.phoneNumber === line)?.active ? null : line;
}

export function CallHistory({ onRedial }: { onRedial: (call: CallRecord) => void }) {
  const history = useQuery(callHistoryQuery);
  const numbers = useQuery(phoneNumbersQuery);
  const phone = usePhoneLibrary();

  if (history.isError) {
    return <LoadFailed message="Failed to load call history" reason={history.error.message} onRetry={() => void history.refetch()} retrying={history.isFetching} />;
  }
  if (history.isPending || !phone) return <CallHistoryLoading />;
  if (history.data.length === 0) {
    return (
      <div className="flex flex-col items-center gap-2 p-10 text-center text-muted-foreground">
        <PhoneCallIcon className="size-8" aria-hidden="true" />
        <p>No call history yet</p>
      </div>
    );
  }

  return (
    <ul className="divide-y" aria-label="Recent calls">
      {history.data.map((call) => {
        const other = call.direction === 'outbound' ? call.to : call.from;
        const { status, label } = statusOf(call);
        const Icon = call.direction === 'outbound' ? PhoneOutgoingIcon : PhoneIncomingIcon;
        const audio = call.mediaTransport ? `Audio: ${mediaTransportLabels[call.mediaTransport]}` : null;
        const figures = call.mediaFigures ? describeMediaFigures(call.mediaFigures) : null;
        const voice = call.voice ? `Voice: ${voiceLabel(call.voice.settings, call.voice.contactName)}` : null;
        const inactive = inactiveLine(call, numbers.data);
        return (
          <li key={call.id} className="flex flex-wrap items-center gap-3 py-3">
            <button
              type="button"
              className="flex min-w-0 flex-1 items-center gap-3 rounded-md text-left hover:bg-accent/50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
              onClick={() => onRedial(call)}
              // The direction icon is decorative, so the name says which way the call went.
              aria-label={`${call.direction === 'outbound' ? 'Outgoing call to' : 'Incoming call from'} ${phone.formatPhoneNumber(other)}, ${label}, ${formatDuration(call.durationSec ?? 0)}${audio ? `, ${audio}` : ''}${figures ? `, ${figures}` : ''}${voice ? `, ${voice}` : ''}${inactive ? `, line ${phone.formatPhoneNumber(inactive)} Inactive` : ''}`}
            >
              <Icon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
              <span className="flex min-w-0 flex-1 flex-col">
                <span className="truncate font-medium">{phone.formatPhoneNumber(other)}</span>
                <span className="text-xs text-muted-foreground">
                  {new Date(call.startedAt).toLocaleString()} · {formatDuration(call.durationSec ?? 0)}
                  {audio && ` · ${audio}`}
                </span>
                {figures && <span className="text-xs text-muted-foreground">{figures}</span>}
                {voice && <span className="text-xs text-muted-foreground">{voice}</span>}
                {inactive && (
                  <span className="flex items-center gap-2 text-xs text-muted-foreground">
                    Line {phone.formatPhoneNumber(inactive)}
                    <Badge variant="secondary">Inactive</Badge>
                  </span>
                )}
              </span>
              <Badge variant="custom" className={statusClass[status]} data-status={status}>
                {label}
              </Badge>
            </button>
            {call.voicemailId && (
              <Button asChild variant="outline" size="sm">
                <Link to={voicemailHref(call.voicemailId)} aria-label={`Voicemail from ${phone.formatPhoneNumber(other)}`}>
                  <VoicemailIcon aria-hidden="true" />
                  Voicemail
                </Link>
              </Button>
            )}
            <IconTooltip label={`Redial ${phone.formatPhoneNumber(other)}`}>
              <Button variant="ghost" size="icon" aria-label={`Redial ${phone.formatPhoneNumber(other)}`} onClick={() => onRedial(call)}>
                <PhoneCallIcon />
              </Button>
            </IconTooltip>
            {call.recordingId && (
              <CallHistoryRecording recordingId={call.recordingId} callName={`call with ${phone.formatPhoneNumber(other)} on ${new Date(call.startedAt).toLocaleString()}`} />
            )}
          </li>
        );
      })}
    </ul>
  );
}
