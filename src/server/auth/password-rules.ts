import { judgePassword, personalWords, preparePasswordChecker } from '../../common/password-strength';
import { AppError } from '../http/app-error';
import type { Auth } from './auth';
import { resetTokenOwner } from './reset-token-owner';

// As the server starts, not in the first sign-up after it did.
preparePasswordChecker();

/**
 * Refuses a new password that is easy to guess (decision 014) with 400 on `field`, saying why and
 * what to do, in zxcvbn's words. The person's own name and address count as easy guesses.
 */
export function assertStrongPassword(password: string, field: string, owner: { fullName?: string | null; email?: string | null }) {
  const verdict = judgePassword(password, personalWords(owner.fullName, owner.email));
  if (!verdict.acceptable) throw AppError.badRequest(`${field}: ${verdict.message}`, field);
}

/** assertStrongPassword for a reset, judged against the name and address of the token's account. */
export async function assertStrongResetPassword(auth: Auth, token: string, newPassword: string) {
  const ownerId = await resetTokenOwner(auth, token);
  // An unknown or expired link is better-auth's to refuse: that answer tells the person what to do.
  if (!ownerId) return;
  const owner = await (await auth.$context).internalAdapter.findUserById(ownerId);
  assertStrongPassword(newPassword, 'newPassword', { fullName: owner?.name, email: owner?.email });
}
