import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client';
import { startSmtpInbox, type SmtpInbox } from '../../../tests/support/smtp-inbox';
import { openTestDatabase } from '../../../tests/support/test-database';
import { createOutboxMailer, createSmtpMailer } from './mailer';
import { mailOutbox } from './schema';
import { changeEmailMessage, confirmEmailMessage, resetPasswordMessage } from './templates';

const TOKEN = 'Zq8ResetTokenThatMustNeverBeLogged';
const RESET_URL = `http://localhost:3000/auth?tab=updatePassword&token=${TOKEN}`;

/** A logger as the app's, whose lines the test reads. */
function capturingLogger() {
  const lines: string[] = [];
  const { log } = Fastify({ logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } } });
  return { log, lines, records: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

function expectNothingFromTheMail(lines: string[]) {
  const all = lines.join('\n');
  expect(all).not.toContain(TOKEN);
  expect(all).not.toContain('updatePassword');
  expect(all).not.toContain('ada.lovelace@');
}

describe('mail templates', () => {
  it('name each message', () => {
    expect(confirmEmailMessage('a@example.com', 'A', 'http://x/1').template).toBe('confirm-email');
    expect(changeEmailMessage('a@example.com', 'A', 'http://x/2').template).toBe('change-email');
    expect(resetPasswordMessage('a@example.com', 'A', 'http://x/3').template).toBe('reset-password');
  });
});

describe('the outbox mailer', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  it('keeps the message with its links and logs only its id, template and recipient domain', async () => {
    const { log, lines, records } = capturingLogger();
    await createOutboxMailer(database.db, log).send(resetPasswordMessage('ada.lovelace@analytical.example', 'Ada', RESET_URL));

    const [logged] = records();
    expect(logged).toMatchObject({ template: 'reset-password', toDomain: 'analytical.example', msg: 'mail kept in the outbox: read it at /dev/outbox on this machine' });
    const [row] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.id, String(logged!.messageId)));
    expect(row?.links).toEqual([RESET_URL]);
    expectNothingFromTheMail(lines);
  });
});

describe('the SMTP mailer', () => {
  let smtp: SmtpInbox;
  beforeAll(async () => {
    smtp = await startSmtpInbox();
  });
  afterAll(() => smtp.close());

  it('logs the Message-ID it sent, the template and the recipient domain, never the link', async () => {
    const { log, lines, records } = capturingLogger();
    await createSmtpMailer(smtp.url, 'Voxline <no-reply@voxline.test>', log).send(
      resetPasswordMessage('ada.lovelace@analytical.example', 'Ada', RESET_URL),
    );

    const [logged] = records();
    expect(logged).toMatchObject({ template: 'reset-password', toDomain: 'analytical.example', msg: 'mail sent' });
    const messageIdHeader = /^Message-ID: (.+)$/im.exec(smtp.deliveries.at(-1)?.raw ?? '')?.[1]?.trim();
    expect(logged!.messageId).toBe(messageIdHeader);
    expect(smtp.deliveries.at(-1)?.raw).toContain('token=');
    expectNothingFromTheMail(lines);
  });
});
