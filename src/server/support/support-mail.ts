import { plans, tierName, type Tier } from '../../common/plans';
import type { MailMessage } from '../mail/mail-message';
import { escapeHtml } from '../http/escape-html';

const utcTime = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** 'Monday, 30 November 2026 at 15:00 UTC': a mail names its time zone, as it is read anywhere. */
function inUtc(time: Date): string {
  return `${utcTime.format(time)} UTC`;
}

function htmlOf(paragraphs: string[]): string {
  return paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`).join('\n');
}

export interface SentRequest {
  id: string;
  subject: string;
  message: string;
  tier: Tier;
  replyDueAt: Date;
  user: { email: string; fullName: string };
}

/** To the support inbox: tagged by level so the inbox sorts it, answered to the user by Reply-To. */
export function supportInboxMessage(inbox: string, request: SentRequest): MailMessage {
  const level = plans[request.tier].support;
  const paragraphs = [
    [
      `From: ${request.user.fullName} <${request.user.email}>`,
      `Plan: ${tierName(request.tier)} (${level.name}: ${level.description})`,
      `Answer due by: ${inUtc(request.replyDueAt)}`,
      `Request: ${request.id}`,
    ].join('\n'),
    `Subject: ${request.subject}`,
    request.message,
  ];
  return {
    template: 'support-request',
    to: inbox,
    replyTo: request.user.email,
    subject: `${level.tag} ${request.subject}`,
    text: paragraphs.join('\n\n'),
    html: htmlOf(paragraphs),
  };
}

/** To the user: their request arrived, and when its answer is due by their plan's support level. */
export function acknowledgementMessage(request: SentRequest): MailMessage {
  const level = plans[request.tier].support;
  const paragraphs = [
    `Hello ${request.user.fullName},`,
    `We received your message "${request.subject}". With ${tierName(request.tier)} you have ${level.name.toLowerCase()}: ${level.description.charAt(0).toLowerCase()}${level.description.slice(1)}`,
    `We will answer by ${inUtc(request.replyDueAt)}, to this address.`,
    'Your message:',
    request.message,
    'Voxline',
  ];
  return {
    template: 'support-acknowledgement',
    to: request.user.email,
    subject: `We received your support request: ${request.subject}`,
    text: paragraphs.join('\n\n'),
    html: htmlOf(paragraphs),
  };
}
