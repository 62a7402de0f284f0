import { formatPhoneNumberNow } from '../lib/phone-library';
import type { CallSnapshot } from './call-snapshot';

type AnnouncedCall = Pick<CallSnapshot, 'phase' | 'direction' | 'peer'>;

/**
 * What a screen reader is told when a call moves from `previous` to `next`: its ringing, its
 * connection and its end. Null when there is nothing new to say (the timer ticking, a mute).
 */
export function callAnnouncement(previous: AnnouncedCall, next: AnnouncedCall): string | null {
  if (previous.phase === next.phase) return null;
  const peer = formatPhoneNumberNow(next.peer || previous.peer);
  switch (next.phase) {
    case 'idle':
      return 'The call has ended';
    case 'connecting':
      return `Calling ${peer}`;
    case 'ringing':
      return next.direction === 'inbound' ? `Incoming call from ${peer}` : `Ringing ${peer}`;
    case 'answering':
      return `Answering the call from ${peer}`;
    case 'active':
      return `Connected to ${peer}`;
  }
}
