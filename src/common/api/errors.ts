import { z } from 'zod/mini';

/**
 * The one shape of every failed API answer (docs/architecture.md#errors). `field` names the bad input when there is one.
 * zod/mini, as the session's schema: every page's first load parses these two, and mini's functions tree-shake (docs/decisions/021).
 */
export const apiErrorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    field: z.optional(z.string()),
  }),
});

export type ApiErrorBody = z.infer<typeof apiErrorSchema>;
