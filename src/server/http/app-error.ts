/** A failure the client may see: an HTTP status, a stable code and a message written for people. */
export class AppError extends Error {
  override readonly name = 'AppError';

  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly field?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  static badRequest(message: string, field?: string) {
    return new AppError(400, 'invalid_input', message, field);
  }

  static unauthenticated(message = 'You need to sign in first') {
    return new AppError(401, 'unauthenticated', message);
  }

  static notFound(message = 'Not found') {
    return new AppError(404, 'not_found', message);
  }

  static conflict(message: string) {
    return new AppError(409, 'conflict', message);
  }

  static providerFailed(message: string, cause?: unknown) {
    return new AppError(502, 'provider_failed', message, undefined, { cause });
  }

  static unavailable(message: string, cause?: unknown) {
    return new AppError(503, 'unavailable', message, undefined, { cause });
  }
}
