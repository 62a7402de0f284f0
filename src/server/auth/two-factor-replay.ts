import { createHash } from 'node:crypto';
import { and, eq, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { twoFactor } from './schema';

// A TOTP code stays valid for its 30 s step and the steps either side: remember it a little longer.
const REPLAY_WINDOW_SECONDS = 120;

const hash = (code: string) => createHash('sha256').update(code).digest('hex');

/**
 * Records that `code` was just accepted for `userId`. Returns false when the same code was already
 * accepted within the window: one atomic UPDATE, so two requests racing with one code cannot both win.
 */
export async function claimTwoFactorCode(db: Database, userId: string, code: string): Promise<boolean> {
  const codeHash = hash(code);
  const claimed = await db
    .update(twoFactor)
    .set({ lastUsedCodeHash: codeHash, lastUsedAt: new Date() })
    .where(
      and(
        eq(twoFactor.userId, userId),
        or(
          isNull(twoFactor.lastUsedCodeHash),
          ne(twoFactor.lastUsedCodeHash, codeHash),
          lt(twoFactor.lastUsedAt, sql`now() - make_interval(secs => ${REPLAY_WINDOW_SECONDS})`),
        ),
      ),
    )
    .returning({ id: twoFactor.id });
  return claimed.length > 0;
}
