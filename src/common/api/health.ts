import { z } from 'zod';

export const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({
    driver: z.enum(['pglite', 'postgres']),
    state: z.enum(['up', 'down']),
  }),
});

export type Health = z.infer<typeof healthSchema>;
