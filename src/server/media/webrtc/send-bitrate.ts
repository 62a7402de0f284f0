import { OPUS_MIN_BITRATE } from '../../../common/media';

/** Above this share of our packets reported lost, the link is taken as full: the bitrate steps down. */
const CONGESTED_LOSS = 0.1;
/** At or below it the link has room again: the bitrate climbs back toward its cap. */
const CLEAR_LOSS = 0.02;
const STEP_DOWN = 0.8;
const STEP_UP = 1.1;

/**
 * The Opus bitrate to send at after the browser's receiver report (RTCP, RFC 3550 §6.4.1): a
 * fifth lower while a tenth or more of our packets are lost, a tenth higher again once almost
 * none are, never below OPUS_MIN_BITRATE nor above the call's cap.
 */
export function bitrateAfterReport(current: number, fractionLost: number, cap: number): number {
  if (fractionLost >= CONGESTED_LOSS) return Math.max(OPUS_MIN_BITRATE, Math.round(current * STEP_DOWN));
  if (fractionLost <= CLEAR_LOSS) return Math.min(cap, Math.round(current * STEP_UP));
  return current;
}
