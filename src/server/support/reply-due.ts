import type { SupportReplyTime } from '../../common/plans';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

const isWeekend = (time: Date) => time.getUTCDay() === 0 || time.getUTCDay() === 6;

/**
 * When the answer to a request sent at `sentAt` is due (docs/product.md, Support). Hours run on any
 * day. Business days are Monday to Friday in UTC: each one adds a day, the weekend's days not
 * counted, so that Friday 15:00 plus one is Monday 15:00; a request sent at the weekend counts from
 * Monday 00:00, when support starts on it.
 */
export function replyDueAt(replyWithin: SupportReplyTime, sentAt: Date): Date {
  if ('hours' in replyWithin) return new Date(sentAt.getTime() + replyWithin.hours * HOUR_MS);
  let due = sentAt;
  while (isWeekend(due)) due = new Date(Date.UTC(due.getUTCFullYear(), due.getUTCMonth(), due.getUTCDate() + 1));
  for (let left = replyWithin.businessDays; left > 0; ) {
    due = new Date(due.getTime() + DAY_MS);
    if (!isWeekend(due)) left -= 1;
  }
  return due;
}
