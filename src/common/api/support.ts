import { z } from 'zod/mini';
import { tiers } from '../plans';
import { miniTextField } from './mini-text-field';

const SUPPORT_SUBJECT_MAX_LENGTH = 120;
export const SUPPORT_MESSAGE_MIN_LENGTH = 10;
export const SUPPORT_MESSAGE_MAX_LENGTH = 5000;

/** Requests a user may send to support an hour (docs/decisions/038-support-by-plan.md). */
export const SUPPORT_REQUESTS_PER_HOUR = 5;

export const supportRequestBodySchema = z.strictObject({
  subject: miniTextField('Subject').check(
    z.trim(),
    z.minLength(1, 'Subject is required'),
    z.maxLength(SUPPORT_SUBJECT_MAX_LENGTH, `Subject must be at most ${SUPPORT_SUBJECT_MAX_LENGTH} characters`),
  ),
  message: miniTextField('Message', { multiline: true }).check(
    z.trim(),
    z.minLength(SUPPORT_MESSAGE_MIN_LENGTH, `Message must be at least ${SUPPORT_MESSAGE_MIN_LENGTH} characters: say what happened`),
    z.maxLength(SUPPORT_MESSAGE_MAX_LENGTH, `Message must be at most ${SUPPORT_MESSAGE_MAX_LENGTH} characters`),
  ),
});

export type SupportRequestBody = z.input<typeof supportRequestBodySchema>;

/** A request the user sent to support, with the plan in force then and when the answer is due. */
export const supportRequestSchema = z.object({
  id: z.string(),
  subject: z.string(),
  message: z.string(),
  tier: z.enum(tiers),
  createdAt: z.string(),
  replyDueAt: z.string(),
  /** False when the mail to the support inbox could not be sent: the user may send it again. */
  delivered: z.boolean(),
});

export type SupportRequest = z.infer<typeof supportRequestSchema>;

export const supportRequestsSchema = z.object({ requests: z.array(supportRequestSchema) });
