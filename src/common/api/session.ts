import { z } from 'zod';

export const sessionUserSchema = z.object({
  id: z.string(),
  email: z.email(),
  fullName: z.string(),
});

export const sessionSchema = z.object({ user: sessionUserSchema });

export type SessionUser = z.infer<typeof sessionUserSchema>;
export type Session = z.infer<typeof sessionSchema>;
