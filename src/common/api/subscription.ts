import { z } from 'zod';
import { tiers } from '../plans';

/** docs/product.md §3 subscription status view: the tier in force now; an expired plan reads as Free. */
export const subscriptionStatusSchema = z.object({
  tier: z.enum(tiers),
  isActive: z.boolean(),
  /** ISO date and time the paid plan ends; null on Free. */
  expiryDate: z.string().nullable(),
});

/** Metered minutes (docs/architecture.md#plans-and-metering) of the current calendar month (UTC). */
export const minutesSchema = z.object({
  tier: z.enum(tiers),
  /** The plan's minutes a month; null is unlimited. */
  monthlyMinutes: z.number().int().nullable(),
  /** Seconds of metered calls this month, the call in progress included. */
  usedSeconds: z.number().int(),
  /** null is unlimited. */
  secondsLeft: z.number().int().nullable(),
  /** When the count starts again: the first moment of next month, ISO. */
  resetsAt: z.string(),
});

export type SubscriptionStatus = z.infer<typeof subscriptionStatusSchema>;
export type Minutes = z.infer<typeof minutesSchema>;
