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
