import { z } from 'zod/mini';

/** zod/mini, as the error schema: every page's first load asks for the session (docs/decisions/021). */
export const sessionUserSchema = z.object({
  id: z.string(),
  email: z.email(),
  fullName: z.string(),
});

export const sessionSchema = z.object({
  user: sessionUserSchema,
  /**
   * The user's address is in ADMIN_EMAILS (docs/operations.md#admin-view): the navigation shows
   * the Admin page. Absent where only the user is known (stored after signing in): not yet asked.
   */
  isAdmin: z.optional(z.boolean()),
});

export type SessionUser = z.infer<typeof sessionUserSchema>;
export type Session = z.infer<typeof sessionSchema>;
