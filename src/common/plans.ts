import type { VoiceType } from './voice';

/** Plans and prices (docs/product.md §9, docs/architecture.md#plans-and-metering): the server charges these, the web app shows them. */

export const tiers = ['free', 'premium', 'platinum'] as const;
export type Tier = (typeof tiers)[number];

export const paidPlans = ['premium', 'platinum'] as const;
export type PaidPlan = (typeof paidPlans)[number];

/** docs/product.md §9: naira per US dollar; amountNGN is the rounded product. */
const NGN_PER_USD = 1720;

/** docs/product.md §9: a paid period, and the expiry when expires_at is absent (updated_at + this). */
export const SUBSCRIPTION_PERIOD_MS = 2_592_000_000;

/**
 * When support answers: within some business days (Monday to Friday, UTC), or within some hours on
 * any day. The reply-due time of a request is computed from it (src/server/support/reply-due.ts).
 */
export type SupportReplyTime = { businessDays: number } | { hours: number };

interface SupportLevel {
  /** Starts the subject of the mail to the support inbox, so that the inbox sorts by it. */
  tag: string;
  name: string;
  /** What the user is promised, as the Support tab shows it. */
  description: string;
  replyWithin: SupportReplyTime;
}

export interface PlanDefinition {
  tier: Tier;
  /** Price a month in cents; 0 for Free. */
  priceUsdMinor: number;
  /** Metered minutes a calendar month; null is unlimited. */
  monthlyMinutes: number | null;
  /** Voice types the plan may use on calls (the normal voice is always allowed). */
  voiceTypes: readonly VoiceType[];
  /** Whether pitch and speed may move from 1. */
  pitchAndSpeed: boolean;
  /**
   * Phone numbers the user may hold at once. Each costs the operator a monthly fee at the carrier
   * (docs/decisions/015), so the limit rises with the price.
   */
  maxNumbers: number;
  /** Whether calls may be recorded (issue 19). */
  recording: boolean;
  /** Whether a change in one tab or device reaches the user's other open ones at once (docs/decisions/037-sync-on-platinum.md). */
  multiDeviceSync: boolean;
  /**
   * Days each kind of file or record is kept (issue 19), enforced by the retention job. A file's
   * time is fixed by the plan in force when it is made, so a downgrade keeps it until then; call
   * history follows the plan in force when the job runs.
   */
  retentionDays: { recordings: number; voicemail: number; history: number };
  /** How fast a request to support (Settings › Support) is answered (docs/decisions/038-support-by-plan.md). */
  support: SupportLevel;
  /** docs/product.md §9 feature list, as shown on the plan's card. */
  features: readonly string[];
}

const basicAccents = ['normal', 'caucasian', 'european', 'hispanic', 'african'] as const satisfies readonly VoiceType[];

export const plans: Record<Tier, PlanDefinition> = {
  free: {
    tier: 'free',
    priceUsdMinor: 0,
    monthlyMinutes: 10,
    voiceTypes: ['normal'],
    pitchAndSpeed: false,
    maxNumbers: 1,
    recording: false,
    multiDeviceSync: false,
    retentionDays: { recordings: 0, voicemail: 30, history: 90 },
    support: { tag: '[Free]', name: 'Email support', description: 'Answered within 5 business days (Monday to Friday).', replyWithin: { businessDays: 5 } },
    features: [],
  },
  premium: {
    tier: 'premium',
    priceUsdMinor: 100_00,
    monthlyMinutes: 150,
    voiceTypes: basicAccents,
    pitchAndSpeed: true,
    maxNumbers: 3,
    recording: true,
    multiDeviceSync: false,
    retentionDays: { recordings: 90, voicemail: 90, history: 90 },
    support: { tag: '[Standard]', name: 'Standard support', description: 'Answered within 1 business day (Monday to Friday).', replyWithin: { businessDays: 1 } },
    features: [
      '150 minutes of calling per month',
      'Basic voice changer with 5 accent options',
      'Call recording, kept 90 days',
      'Voicemail kept 90 days',
      'Standard support',
    ],
  },
  platinum: {
    tier: 'platinum',
    priceUsdMinor: 150_00,
    monthlyMinutes: null,
    voiceTypes: ['normal', 'caucasian', 'european', 'russian', 'chinese', 'indian', 'african', 'hispanic', 'middleEastern'],
    pitchAndSpeed: true,
    maxNumbers: 10,
    recording: true,
    multiDeviceSync: true,
    retentionDays: { recordings: 365, voicemail: 365, history: 365 },
    support: { tag: '[24/7]', name: '24/7 support', description: 'Answered within 2 hours, any day.', replyWithin: { hours: 2 } },
    features: [
      'Unlimited calls',
      'Advanced voice changer with all accents',
      'Priority call reception when Voxline is busy',
      'Recordings, voicemail and call history kept for a year',
      '24/7 support',
      'Multi-device sync: changes show at once on every open device',
    ],
  },
};

const DAY_MS = 86_400_000;

/** When a recording or voicemail made now under `tier` may be deleted by the retention job. */
export function retainUntil(tier: Tier, kind: 'recordings' | 'voicemail', madeAt: Date): Date {
  return new Date(madeAt.getTime() + plans[tier].retentionDays[kind] * DAY_MS);
}

/** The first plan above `tier` that allows more phone numbers, or null when none does. */
export function planWithMoreNumbers(tier: Tier): Tier | null {
  return tiers.slice(tiers.indexOf(tier) + 1).find((next) => plans[next].maxNumbers > plans[tier].maxNumbers) ?? null;
}

/** '1 number', '3 numbers'. */
export function numbersInWords(count: number): string {
  return count === 1 ? '1 number' : `${count} numbers`;
}

/** How to hold more numbers than `tier` allows: the plan to move to, or, at the top, releasing one. */
export function moreNumbersAdvice(tier: Tier): string {
  const next = planWithMoreNumbers(tier);
  return next ? `Upgrade to ${tierName(next)} for up to ${plans[next].maxNumbers}.` : 'Release a number to add another.';
}

/** A USD amount in cents as kobo at the fixed rate: round(USD × 1720), in minor units. */
export function usdMinorToNgnMinor(usdMinor: number): number {
  return Math.round((usdMinor / 100) * NGN_PER_USD) * 100;
}

/** What a month of the plan costs, in minor units of both currencies. */
export function planPrice(plan: PaidPlan): { usdMinor: number; ngnMinor: number } {
  const usdMinor = plans[plan].priceUsdMinor;
  return { usdMinor, ngnMinor: usdMinorToNgnMinor(usdMinor) };
}

/** docs/product.md §9: plan and tier names capitalised. */
export function tierName(tier: Tier): string {
  return tier.charAt(0).toUpperCase() + tier.slice(1);
}

let twoDecimalsFormat: Intl.NumberFormat | undefined;

/**
 * Made on first use: building an Intl.NumberFormat loads locale data, 16–65 ms of a throttled
 * phone's main thread, and every signed-in page loads this module but few show a price.
 */
function twoDecimals(amount: number): string {
  twoDecimalsFormat ??= new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return twoDecimalsFormat.format(amount);
}

/** docs/product.md §9: two decimals with the dollar sign: 10000 → '$100.00'. */
export function formatUsd(amountMinor: number): string {
  return `$${twoDecimals(amountMinor / 100)}`;
}

/** docs/product.md §9: two decimals with the naira sign: 17200000 → '₦172,000.00'. */
export function formatNgn(amountMinor: number): string {
  return `₦${twoDecimals(amountMinor / 100)}`;
}
