import type { LiveMediaFigures } from '../../common/api/admin';
import type { CallLeg } from '../media/leg';
import { WebRtcLeg } from '../media/webrtc/webrtc-leg';
import type { LiveCall } from './live-calls';

/** Only a WebRTC leg makes frames up: the websocket paths leave loss to the browser's jitter buffer. */
const concealedBy = (leg: CallLeg | null) => (leg instanceof WebRtcLeg ? leg.stats.concealedFrames : 0);

/**
 * The live media figures of the calls given, by record id (the caller's and the callee's both
 * name the call): counters the bridge and legs keep anyway, so reading them costs nothing.
 * Calls whose legs have not joined yet have none.
 */
export function mediaFiguresOf(calls: readonly LiveCall[]): Record<string, LiveMediaFigures> {
  const figures: Record<string, LiveMediaFigures> = {};
  for (const call of calls) {
    if (!call.bridge) continue;
    const ofCall = { framesIn: call.bridge.frames.in, framesOut: call.bridge.frames.out, concealedFrames: concealedBy(call.caller) + concealedBy(call.callee) };
    figures[call.id] = ofCall;
    if (call.inbound) figures[call.inbound.id] = ofCall;
  }
  return figures;
}
