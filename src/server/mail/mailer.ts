import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import { mailOutbox } from './schema';
import type { MailMessage } from './mail-message';

/** Sends mail: over SMTP when SMTP_URL is set, else into the outbox table. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

function linksIn(text: string): string[] {
  return [...text.matchAll(/https?:\/\/[^\s<>"]+/g)].map((match) => match[0]);
}

/**
 * What the log says of a message: its id, its template and the recipient's domain. Never its
 * links, which carry a token that signs in or resets a password, nor the whole address.
 */
function mailLogFields(messageId: string, message: MailMessage) {
  return { messageId, template: message.template, toDomain: message.to.slice(message.to.lastIndexOf('@') + 1) };
}

export function createSmtpMailer(smtpUrl: string, from: string, log: FastifyBaseLogger): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send({ template, ...message }) {
      const info = await transport.sendMail({ from, ...message });
      log.info(mailLogFields(info.messageId, { template, ...message }), 'mail sent');
    },
  };
}

export function createOutboxMailer(db: Database, log: FastifyBaseLogger): Mailer {
  return {
    async send(message) {
      const { to, subject, text, html } = message;
      const [row] = await db.insert(mailOutbox).values({ to, subject, text, html, links: linksIn(text) }).returning({ id: mailOutbox.id });
      log.info(mailLogFields(row!.id, message), 'mail kept in the outbox: read it at /dev/outbox on this machine');
    },
  };
}
