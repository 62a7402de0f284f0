import type { z } from 'zod';
import { AppError } from './app-error';

/**
 * The `payload` of a `/functions/v1` compatibility request, read with its action's schema: those
 * routes take `{ action, payload }`, so the body schema cannot know the payload's shape. A bad one
 * is a 400 naming the field (`payload.country`), as on /api/v1.
 */
export function readPayload<T extends z.ZodType>(schema: T, payload: unknown): z.output<T> {
  const result = schema.safeParse(payload ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = ['payload', ...issue.path.map(String)].join('.');
  throw AppError.badRequest(`${field}: ${issue.message}`, field);
}
