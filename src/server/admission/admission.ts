import type { Tier } from '../../common/plans';

/**
 * Priority call reception (docs/operations.md#priority-reception, decision 033): the share of
 * MAX_CALLS_PER_INSTANCE, in percent, up to which an instance takes a new call of each plan. The
 * last tenth of the capacity is kept for paying users, its last twentieth for Platinum, so that a
 * busy instance still takes Platinum calls up to the hard cap.
 */
const admissionPercent: Record<Tier, number> = { free: 90, premium: 95, platinum: 100 };

/**
 * Whether an instance that carries `carried` calls takes a new one placed by a user on `tier`:
 * while the calls carried are below the plan's share of `maxCalls`. With MAX_CALLS_PER_INSTANCE=20,
 * a Free call is refused from 18 calls on, a Premium one from 19, a Platinum one from 20.
 */
export function admitCall(tier: Tier, carried: number, maxCalls: number): boolean {
  // Whole numbers on both sides: 0.95 × 20 in floating point is not always 19.
  return carried * 100 < admissionPercent[tier] * maxCalls;
}

/**
 * Whether an instance carrying `carried` calls lets a call ring a user on `calleeTier`; the same
 * shares as for placing, by the plan of the user called. A call refused here goes to the callee's
 * voicemail with reason 'busy'.
 */
export function admitsIncoming(calleeTier: Tier, carried: number, maxCalls: number): boolean {
  return admitCall(calleeTier, carried, maxCalls);
}
