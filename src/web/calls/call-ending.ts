import { SERVER_BUSY } from '../../common/api/calls';
import { formatDuration, type CallOutcome } from '../../common/calls';
import { formatPhoneNumberNow } from '../lib/phone-library';
import { ApiError } from '../lib/api-client';
import { withErrorReference } from '../lib/error-reference';
import type { CallServer, Notices } from './call-session-ports';
import type { LiveCall } from './call-snapshot';
import { elapsedSeconds } from './elapsed-seconds';

/** How a call ended, from call.ended, a call record, or this tab's own reckoning. */
export interface CallEnd {
  outcome: CallOutcome | null;
  /** Null when the server did not say: counted here from the answer. */
  durationSec: number | null;
  reason: string | null;
}

/** What the page says of a call that ended because its session did (the server can no longer be asked). */
const SIGNED_OUT_REASON = 'You were signed out';

/** What the page says of a call whose audio dropped and whose end could not be read. */
const CUT_OFF_REASON = 'The call was cut off';

const failureText: Partial<Record<CallOutcome, string>> = {
  busy: 'The line is busy',
  'no-answer': 'Nobody answered',
  unavailable: 'Nobody is taking calls on that number right now',
  rejected: 'The call was declined',
};

/** The caller's notice for a placed call that did not go through; the reason follows it. */
export function announcePlacementFailure(notices: Notices, outcome: CallOutcome, reason: string | null) {
  const title = outcome === 'rejected' ? 'Call rejected' : outcome === 'no-answer' ? 'No answer' : 'Call failed';
  notices.error(title, { description: reason ?? failureText[outcome] ?? 'Failed to initiate call' });
}

/** The call's own end, when this tab signed out: the server ended it as a hang-up. */
export function signedOutEnd(call: LiveCall, now: number): CallEnd {
  const answered = call.answeredAt !== null;
  return { outcome: answered ? 'completed' : 'cancelled', durationSec: elapsedSeconds(call.answeredAt, now), reason: SIGNED_OUT_REASON };
}

/** How long a call that was up lasted, after why it ended when something other than a hang-up ended it (an administrator, the server stopping). */
function upCallDescription(reason: string | null, durationSec: number): string {
  const duration = `Duration: ${formatDuration(durationSec)}`;
  return reason ? `${reason}. ${duration}` : duration;
}

/** Says how the call went, as each side of a call always has. */
export function announceEnd(notices: Notices, call: LiveCall, end: CallEnd, now: number) {
  if (call.direction === 'outbound') {
    const outcome = end.outcome ?? 'completed';
    if (outcome === 'completed' || outcome === 'cancelled') notices.info('Call ended', { description: upCallDescription(end.reason, end.durationSec ?? 0) });
    else announcePlacementFailure(notices, outcome, end.reason);
    return;
  }
  if (!call.answerSent) {
    // Never answered here: answered in another tab, or the caller gave up.
    if (end.outcome === 'completed') notices.info(end.reason ?? 'Answered in another tab');
    else notices.info('Missed call', { description: `From ${formatPhoneNumberNow(call.peer)}` });
  } else if (end.outcome === 'failed') {
    notices.error('Call failed', { description: end.reason ?? CUT_OFF_REASON });
  } else {
    notices.info('Call ended', { description: upCallDescription(end.reason, end.durationSec ?? elapsedSeconds(call.answeredAt, now)) });
  }
}

/** Why placing a call failed, from the API's error: the microphone, the session, the plan's minutes. */
export function announcePlacementError(notices: Notices, error: unknown, openPlans: () => void) {
  if (error instanceof ApiError && error.status === 401) notices.error('Authentication required', { description: 'Please log in to make calls' });
  // Priority reception: a busy server's refusal is the plan working, not a fault to quote to support.
  else if (error instanceof ApiError && error.code === SERVER_BUSY) notices.error('Call not placed', { description: error.message });
  else if (error instanceof ApiError && error.code === 'call_in_progress') notices.error('Call in progress', { description: withErrorReference(error.message, error) });
  else if (error instanceof ApiError && error.code === 'minutes_used_up') {
    notices.error('Monthly minutes used up', { description: 'Upgrade your plan for more minutes this month.', action: { label: 'Upgrade', onClick: openPlans } });
  } else notices.error('Call failed', { description: withErrorReference((error as Error).message || 'Failed to initiate call', error) });
}

/**
 * How a call whose audio dropped ended, as the server recorded it. A placed call takes the record
 * as it stands; a received call not ended yet is `stillOpen` (this tab hangs it up). Unreadable: cut off.
 */
export async function readEndAfterDrop(server: CallServer, call: LiveCall): Promise<{ end: CallEnd; stillOpen: boolean }> {
  const cutOff: CallEnd = { outcome: 'failed', durationSec: call.direction === 'outbound' ? 0 : null, reason: CUT_OFF_REASON };
  try {
    const record = await server.getCall(call.callId!);
    if (call.direction === 'outbound' || record.state === 'ended') return { end: record, stillOpen: false };
    return { end: cutOff, stillOpen: true };
  } catch {
    return { end: cutOff, stillOpen: false };
  }
}
