import { MAX_DTMF_DIGITS } from '../../common/api/calls';
import type { CallServer, Notices } from './call-session-ports';

/**
 * Sends the keys pressed during a call in the order pressed (docs/calls.md#touch-tones): one
 * request at a time, the keys pressed meanwhile gathered into the next one, so that quick presses
 * neither overtake each other nor go out one request each.
 */
export class TouchToneSender {
  private waiting = '';
  private sending = false;

  constructor(private readonly deps: { server: Pick<CallServer, 'sendDtmf'>; notices: Pick<Notices, 'error'> }) {}

  press(callId: string, key: string) {
    this.waiting += key;
    if (!this.sending) void this.sendWaiting(callId);
  }

  private async sendWaiting(callId: string) {
    this.sending = true;
    while (this.waiting) {
      const digits = this.waiting.slice(0, MAX_DTMF_DIGITS);
      this.waiting = this.waiting.slice(digits.length);
      try {
        await this.deps.server.sendDtmf(callId, digits);
      } catch (error) {
        this.waiting = '';
        this.deps.notices.error('Touch-tones not sent', { description: error instanceof Error ? error.message : 'The keys could not be sent' });
      }
    }
    this.sending = false;
  }
}
