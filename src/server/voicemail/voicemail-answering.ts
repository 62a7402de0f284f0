import type { VoicemailReason } from '../../common/api/voicemail';
import type { CallLog } from '../calls/call-log';
import type { CallLeg } from '../media/leg';

/** A call nobody answered, as the voicemail that takes it sees it. */
export interface UnansweredCall {
  /** The owner of the number called: the message is theirs. */
  ownerId: string;
  /** The owner's missed-call record, which links to the message. */
  callRecordId: string;
  from: string;
  to: string;
  reason: VoicemailReason;
  log: CallLog;
}

/** What the call core asks of voicemail (user-ringing.ts): a leg that greets the caller and takes a message. */
export interface VoicemailAnswering {
  answer(call: UnansweredCall): Promise<CallLeg>;
}
