import { desc, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { SUPPORT_REQUESTS_PER_HOUR, type SupportRequest } from '../../common/api/support';
import type { SessionUser } from '../../common/api/session';
import { plans } from '../../common/plans';
import type { Database } from '../db/client';
import { AppError } from '../http/app-error';
import { rateLimited, type RateLimiter } from '../http/rate-limiter';
import type { Mailer } from '../mail/mailer';
import { currentPlan } from '../plans/service';
import { replyDueAt } from './reply-due';
import { supportRequests } from './schema';
import { acknowledgementMessage, supportInboxMessage } from './support-mail';

export interface SupportContext {
  db: Database;
  mailer: Mailer;
  rateLimiter: RateLimiter;
  /** The support inbox (config.supportEmail). */
  inbox: string;
  log: FastifyBaseLogger;
}

const perHour = { limit: SUPPORT_REQUESTS_PER_HOUR, windowMs: 3_600_000 };

type SupportRequestRow = typeof supportRequests.$inferSelect;

function toSupportRequest(row: SupportRequestRow): SupportRequest {
  return {
    id: row.id,
    subject: row.subject,
    message: row.message,
    tier: row.tier,
    createdAt: row.createdAt.toISOString(),
    replyDueAt: row.replyDueAt.toISOString(),
    delivered: row.deliveredAt !== null,
  };
}

/**
 * Keeps the request, then mails it to the support inbox tagged by the plan's level, then tells the
 * user when to expect the answer. The row comes first so that no mail failure loses it; a request
 * the inbox did not take answers 502 and does not count against the hourly limit, to be sent again.
 */
export async function sendSupportRequest(context: SupportContext, user: SessionUser, body: { subject: string; message: string }, now = new Date()): Promise<SupportRequest> {
  const { db, mailer, rateLimiter, inbox, log } = context;
  const limitKey = `support:user:${user.id}`;
  const msLeft = await rateLimiter.take(limitKey, perHour);
  if (msLeft > 0) throw rateLimited(`You can send at most ${SUPPORT_REQUESTS_PER_HOUR} support requests an hour.`, msLeft);

  const { tier } = await currentPlan(db, user.id, now);
  const [row] = await db
    .insert(supportRequests)
    .values({ userId: user.id, subject: body.subject, message: body.message, tier, replyDueAt: replyDueAt(plans[tier].support.replyWithin, now), createdAt: now })
    .returning();
  const sent = { ...row!, user };

  try {
    await mailer.send(supportInboxMessage(inbox, sent));
  } catch (error) {
    await rateLimiter.giveBack(limitKey);
    throw AppError.providerFailed('Your message is saved, but it could not be sent to support just now. Please send it again in a few minutes.', error);
  }
  const [delivered] = await db.update(supportRequests).set({ deliveredAt: new Date() }).where(eq(supportRequests.id, row!.id)).returning();

  // Support has the request: a lost acknowledgement is logged, not a failure of the request.
  await mailer.send(acknowledgementMessage(sent)).catch((error: unknown) => log.warn({ err: error, supportRequestId: row!.id }, 'support: could not send the acknowledgement to the user'));
  return toSupportRequest(delivered!);
}

/** The user's own requests, newest first. */
export async function listSupportRequests(db: Database, userId: string): Promise<SupportRequest[]> {
  const rows = await db.select().from(supportRequests).where(eq(supportRequests.userId, userId)).orderBy(desc(supportRequests.createdAt), desc(supportRequests.id));
  return rows.map(toSupportRequest);
}
