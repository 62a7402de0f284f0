import { z } from 'zod/mini';

/** zod/mini, as the error schema: every page's first load asks for the session (docs/decisions/021). */
export const sessionUserSchema = z.object({
  id: z.string(),
  email: z.email(),
  fullName: z.string(),
});

const sessionSchema = z.object({
  user: sessionUserSchema,
  /**
   * The user's address is in ADMIN_EMAILS (docs/operations.md#admin-view): the navigation shows
   * the Admin page. Absent where only the user is known (stored after signing in): not yet asked.
   */
  isAdmin: z.optional(z.boolean()),
});

/** What GET /api/v1/session answers: the session, or null for a visitor who is not signed in (decision 025). */
export const sessionAnswerSchema = z.nullable(sessionSchema);

export type SessionUser = z.infer<typeof sessionUserSchema>;
export type Session = z.infer<typeof sessionSchema>;
