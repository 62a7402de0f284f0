import { MAX_DTMF_DIGITS, type DtmfResult } from '../../common/api/calls';
import { AppError } from '../http/app-error';
import type { TelephonyProvider } from '../providers/telephony/telephony-provider';
import type { LiveCall, LiveCalls } from './live-calls';

/** Touch-tones need an answered call whose audio is connected. */
export const noCallUp = () => new AppError(409, 'no_call_up', 'No call is up: touch-tones can be sent once the call is answered and connected');

const queueFull = (waiting: number) =>
  new AppError(409, 'dtmf_queue_full', `At most ${MAX_DTMF_DIGITS} touch-tones can wait to be played, and ${waiting} are waiting: send these once they have played`);

export interface TouchTonesDependencies {
  live: LiveCalls;
  telephony: TelephonyProvider;
}

/**
 * Keys pressed during a call (docs/calls.md#touch-tones). On a call the phone network carries they go
 * through the provider's DTMF action; on every other call they are played as tones into the audio
 * the other side hears, and a Voxline user on the other side is told which keys came. (Keys the
 * network's far side presses reach the user from the provider's leg, provider-calls.ts.)
 */
export class TouchTones {
  constructor(private readonly deps: TouchTonesDependencies) {}

  /** The user presses `digits` on their call here (their record, as caller or callee); 'not-here' when this instance does not hold it. */
  async send(userId: string, callId: string, digits: string): Promise<DtmfResult | 'not-here'> {
    const inbound = this.deps.live.getInbound(callId);
    if (inbound?.userId === userId) return this.sendOn(inbound.outbound, 'callee', digits);
    const call = this.deps.live.get(callId);
    if (!call || call.userId !== userId) return 'not-here';
    return this.sendOn(call, 'caller', digits);
  }

  private async sendOn(call: LiveCall, side: 'caller' | 'callee', digits: string): Promise<DtmfResult> {
    if (call.ending || !call.answeredAt) throw noCallUp();
    // The digits are not logged: they are often a PIN or an account number.
    if (call.provider) {
      const providerCalls = this.deps.telephony.calls;
      if (!call.provider.id || !providerCalls) throw noCallUp();
      try {
        await providerCalls.sendDtmf(call.provider.id, digits);
      } catch (error) {
        throw AppError.providerFailed(`The phone network did not take the touch-tones: ${error instanceof Error ? error.message : String(error)}`, error);
      }
      call.log.info({ side, keys: digits.length }, 'touch-tones sent to the phone network');
      return { digits, via: 'provider' };
    }
    if (!call.bridge) throw noCallUp();
    const tones = call.bridge.tones[side];
    if (tones.pending + digits.length > MAX_DTMF_DIGITS) throw queueFull(tones.pending);
    tones.add(digits);
    this.deps.live.tellKeysPressed(call, side === 'caller' ? 'callee' : 'caller', digits);
    call.log.info({ side, keys: digits.length }, 'touch-tones played into the call');
    return { digits, via: 'tones' };
  }
}
