import { ApiError } from './api-client';

/**
 * An error toast's description: `text`, followed, when the failure is a request the server
 * answered, by the reference a person can quote to support, which finds that request's log lines
 * (docs/operations.md#logs).
 */
export function withErrorReference(text: string, error: unknown): string {
  const reference = error instanceof ApiError ? error.reference : null;
  return reference ? `${text} (Reference: ${reference})` : text;
}
