import { z } from 'zod/mini';

/** How a call's line is doing, in one word (docs/calls.md#call-details), from its loss, jitter and round trip. */
const callQualities = ['good', 'fair', 'poor'] as const;
export type CallQuality = (typeof callQualities)[number];

export const callQualityLabels: Record<CallQuality, string> = { good: 'Good', fair: 'Fair', poor: 'Poor' };

/**
 * The limits of each word: Good needs all three under the first figure, Poor any one over the
 * second; Fair is in between. Near the ITU-T G.114 mouth-to-ear budget and Opus's loss tolerance.
 */
const CALL_QUALITY_LIMITS = {
  lossShare: { good: 0.01, poor: 0.05 },
  jitterMs: { good: 30, poor: 80 },
  roundTripMs: { good: 300, poor: 600 },
} as const;

/** The figures a quality is judged on; one the transport cannot measure is left out and does not count. */
export interface QualityFigures {
  /** Share (0…1) of packets lost, or of audio made up to hide a late or lost packet, whichever is larger. */
  lossShare?: number;
  jitterMs?: number;
  roundTripMs?: number;
}

/** Good, Fair or Poor for the figures given (CALL_QUALITY_LIMITS); Good when nothing could be measured. */
export function rateCallQuality(figures: QualityFigures): CallQuality {
  const measured = (Object.keys(CALL_QUALITY_LIMITS) as (keyof QualityFigures)[]).flatMap((name) => {
    const value = figures[name];
    return value === undefined ? [] : [{ value, limits: CALL_QUALITY_LIMITS[name] }];
  });
  if (measured.some(({ value, limits }) => value > limits.poor)) return 'poor';
  if (measured.every(({ value, limits }) => value < limits.good)) return 'good';
  return 'fair';
}

/** The delay the voice changer adds while any voice but the normal one is on (docs/decisions/007); the normal voice adds none. */
export const VOICE_EFFECT_DELAY_MS = 29;

/** The average and the worst of one figure over a call. */
const figureSchema = z.number().check(z.gte(0), z.lte(1e6));
const figureRangeSchema = z.object({ average: figureSchema, worst: figureSchema });
export type FigureRange = z.infer<typeof figureRangeSchema>;

/**
 * PUT /api/v1/calls/:id/media-figures: what the browser measured of a call's audio, once a second
 * while it was up, kept on the call record for Call History. A figure the transport could not
 * measure is null.
 */
export const callMediaFiguresSchema = z.strictObject(
  {
    /** How many one-second readings the figures cover. */
    readings: z.int().check(z.gte(1, 'readings must be at least 1'), z.lte(1_000_000)),
    codec: z.nullable(z.string().check(z.maxLength(40))),
    roundTripMs: z.nullable(figureRangeSchema),
    jitterMs: z.nullable(figureRangeSchema),
    /** Share (0…1) of packets lost. */
    lossShare: z.nullable(figureRangeSchema),
    /** Share (0…1) of the audio played that was made up. */
    concealedShare: z.nullable(figureRangeSchema),
    voiceDelayMs: figureRangeSchema,
    /** The quality of the call's averages, and the worst of its readings. */
    quality: z.enum(callQualities),
    worstQuality: z.enum(callQualities),
  },
  { error: 'Media figures must be an object with readings, codec, roundTripMs, jitterMs, lossShare, concealedShare, voiceDelayMs, quality and worstQuality' },
);
export type CallMediaFigures = z.infer<typeof callMediaFiguresSchema>;
