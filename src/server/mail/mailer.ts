import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import { mailOutbox } from './schema';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Sends mail: over SMTP when SMTP_URL is set, else into the outbox table. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export function linksIn(text: string): string[] {
  return [...text.matchAll(/https?:\/\/[^\s<>"]+/g)].map((match) => match[0]);
}

export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(message) {
      await transport.sendMail({ from, ...message });
    },
  };
}

export function createOutboxMailer(db: Database, log: FastifyBaseLogger): Mailer {
  return {
    async send(message) {
      const links = linksIn(message.text);
      await db.insert(mailOutbox).values({ ...message, links });
      log.info({ to: message.to, subject: message.subject, links }, `mail kept in the outbox: ${message.subject}`);
    },
  };
}
