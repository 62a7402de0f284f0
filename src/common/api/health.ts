import { z } from 'zod';

const stateSchema = z.enum(['up', 'down']);

/** GET /api/v1/health: what this instance can reach. `redis` is there when instances share one (REDIS_URL). */
export const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({
    driver: z.enum(['pglite', 'postgres']),
    state: stateSchema,
  }),
  redis: z.object({ state: stateSchema }).optional(),
});

export type Health = z.infer<typeof healthSchema>;

/** GET /api/v1/health/live: the process answers; nothing it depends on is checked. */
export const livenessSchema = z.object({ live: z.literal(true) });

/** Each check of readiness: `ok`, or why it fails (`unreachable: ECONNREFUSED`, `at capacity: 1000 of 1000 calls`). */
const checkSchema = z.string();

/**
 * GET /api/v1/health/ready: whether a load balancer should send this instance new work (200) or
 * not (503). `redis` is there when instances share one (REDIS_URL).
 */
export const readinessSchema = z.object({
  ready: z.boolean(),
  checks: z.object({
    database: checkSchema,
    redis: checkSchema.optional(),
    draining: checkSchema,
    calls: checkSchema,
  }),
});

export type Readiness = z.infer<typeof readinessSchema>;
