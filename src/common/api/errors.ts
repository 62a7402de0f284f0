import { z } from 'zod';

/** The one shape of every failed API answer (docs/architecture.md#errors). `field` names the bad input when there is one. */
export const apiErrorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    field: z.string().optional(),
  }),
});

export type ApiErrorBody = z.infer<typeof apiErrorSchema>;
