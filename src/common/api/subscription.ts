import { z } from 'zod/mini';
import { tiers } from '../plans';

/** docs/product.md §3 subscription status view: the tier in force now; an expired plan reads as Free. */
export const subscriptionStatusSchema = z.object({
  tier: z.enum(tiers),
  isActive: z.boolean(),
  /** ISO date and time the paid plan ends; null on Free. */
  expiryDate: z.nullable(z.string()),
});

/** Metered minutes (docs/architecture.md#plans-and-metering) of the current calendar month (UTC). */
export const minutesSchema = z.object({
  tier: z.enum(tiers),
  /** The plan's minutes a month; null is unlimited. */
  monthlyMinutes: z.nullable(z.int()),
  /** Seconds of metered calls this month, the call in progress included. */
  usedSeconds: z.int(),
  /** null is unlimited. */
  secondsLeft: z.nullable(z.int()),
  /** When the count starts again: the first moment of next month, ISO. */
  resetsAt: z.string(),
});

export type SubscriptionStatus = z.infer<typeof subscriptionStatusSchema>;
export type Minutes = z.infer<typeof minutesSchema>;
