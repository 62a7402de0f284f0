import type { Auth } from './auth';

/**
 * The user a password-reset token was issued to, or null when the token is unknown or expired.
 * Asked before the reset, which spends the token: better-auth's own lookup, which also finds an
 * identifier it stores hashed.
 */
export async function resetTokenOwner(auth: Auth, token: string): Promise<string | null> {
  const { internalAdapter } = await auth.$context;
  const verification = await internalAdapter.findVerificationValue(`reset-password:${token}`);
  return verification && verification.expiresAt > new Date() ? verification.value : null;
}
