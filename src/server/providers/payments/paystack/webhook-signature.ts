import { createHmac, timingSafeEqual } from 'node:crypto';

/** Paystack's x-paystack-signature: lowercase hex HMAC-SHA512 of the raw request body with the secret key. */
export function signPaystackBody(secretKey: string, rawBody: Buffer | string): string {
  return createHmac('sha512', secretKey).update(rawBody).digest('hex');
}

/**
 * Whether the header signs exactly these bytes. Computed over the raw body, never re-serialised
 * JSON, and compared in constant time (docs/providers.md#paystack).
 */
export function isPaystackSignatureValid(secretKey: string, rawBody: Buffer, header: string | string[] | undefined): boolean {
  if (typeof header !== 'string' || !/^[0-9a-f]{128}$/i.test(header)) return false;
  const expected = Buffer.from(signPaystackBody(secretKey, rawBody), 'hex');
  return timingSafeEqual(expected, Buffer.from(header, 'hex'));
}
