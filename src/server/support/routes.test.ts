import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSignedInUser } from '../../../tests/support/accounts';
import { decodeQuotedPrintable, startSmtpInbox, type Delivery, type SmtpInbox } from '../../../tests/support/smtp-inbox';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { TestBrowser } from '../../../tests/support/test-browser';
import { plans, type PaidPlan } from '../../common/plans';
import { extendSubscription } from '../plans/service';
import { replyDueAt } from './reply-due';
import { supportRequests } from './schema';

/** The SMTP server refuses this mailbox, as a support inbox that is away would. */
const REFUSED_INBOX = 'away@support.test';

let smtp: SmtpInbox;
let testApp: TestApp;
/** The same database, its support inbox refused by the SMTP server. */
let inboxAway: TestApp;

beforeAll(async () => {
  smtp = await startSmtpInbox({ refuse: (address) => address === REFUSED_INBOX });
  testApp = await buildTestApp({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'Voxline <no-reply@voxline.test>' } });
  inboxAway = await buildTestApp({ database: testApp.database, env: { SMTP_URL: smtp.url, SUPPORT_EMAIL: REFUSED_INBOX } });
});

afterAll(async () => {
  await inboxAway?.close();
  await testApp?.close();
  await smtp?.close();
});

function deliveredTo(address: string, subjectStart: string): Delivery & { subject: string; body: string } {
  const found = smtp.deliveries
    .filter((delivery) => delivery.to.includes(address))
    .map((delivery) => ({ ...delivery, subject: /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(delivery.raw)?.[1]?.replace(/\r?\n[ \t]/g, ' ') ?? '', body: decodeQuotedPrintable(delivery.raw) }))
    .filter((delivery) => delivery.subject.startsWith(subjectStart));
  expect(found, `mail to ${address} starting "${subjectStart}"; delivered: ${smtp.deliveries.map((d) => d.to.join()).join('; ')}`).toHaveLength(1);
  return found[0]!;
}

async function userOn(plan: PaidPlan | 'free', app = testApp) {
  const user = await newSignedInUser(app.app, 'Grace Hopper');
  if (plan !== 'free') await extendSubscription(app.database.db, user.userId, plan, new Date());
  return user;
}

const send = (browser: TestBrowser, subject: string, message = 'The other side cannot hear me on any call.') => browser.post('/api/v1/support', { subject, message });

describe('the support routes', () => {
  it('need a session', async () => {
    const anonymous = new TestBrowser(testApp.app);
    expect((await anonymous.get('/api/v1/support')).statusCode).toBe(401);
    const refused = await send(anonymous, 'Anybody there');
    expect(refused.statusCode).toBe(401);
    expect(await testApp.database.db.select().from(supportRequests).where(eq(supportRequests.subject, 'Anybody there'))).toEqual([]);
  });
});

describe('sending a request to support', () => {
  it('from Platinum: tagged [24/7] to the support inbox, due in 2 hours, acknowledged to the user', async () => {
    const { browser, email } = await userOn('platinum');
    const response = await send(browser, 'Callers hear an echo', 'Since this morning every caller hears an echo.\nPlease help.');
    expect(response.statusCode, response.body).toBe(201);
    const request = response.json();
    expect(request).toMatchObject({ subject: 'Callers hear an echo', message: 'Since this morning every caller hears an echo.\nPlease help.', tier: 'platinum', delivered: true });
    expect(Date.parse(request.replyDueAt) - Date.parse(request.createdAt)).toBe(2 * 3_600_000);

    // The default inbox: support@ the domain of MAIL_FROM.
    const toSupport = deliveredTo('support@voxline.test', '[24/7] ');
    expect(toSupport.subject).toBe('[24/7] Callers hear an echo');
    expect(toSupport.raw).toMatch(new RegExp(`^Reply-To: ${email.replace(/[.+]/g, '\\$&')}`, 'm'));
    expect(toSupport.body).toContain(`From: Grace Hopper <${email}>`);
    expect(toSupport.body).toContain('Plan: Platinum (24/7 support: Answered within 2 hours, any day.)');
    expect(toSupport.body).toMatch(/Answer due by: \w+day, \d{1,2} \w+ \d{4} at \d{2}:\d{2} UTC/);
    expect(toSupport.body).toContain('every caller hears an echo');

    const ack = deliveredTo(email, 'We received your support request');
    expect(ack.subject).toBe('We received your support request: Callers hear an echo');
    expect(ack.body).toContain('With Platinum you have 24/7 support: answered within 2 hours, any day.');
    expect(ack.body).toMatch(/We will answer by \w+day, \d{1,2} \w+ \d{4} at \d{2}:\d{2} UTC/);
  });

  it('from Premium: tagged [Standard], due one business day later (weekends skipped)', async () => {
    const { browser, email } = await userOn('premium');
    const response = await send(browser, 'Number not ringing');
    expect(response.statusCode, response.body).toBe(201);
    const request = response.json();
    expect(request.tier).toBe('premium');
    expect(request.replyDueAt).toBe(replyDueAt(plans.premium.support.replyWithin, new Date(request.createdAt)).toISOString());

    const toSupport = deliveredTo('support@voxline.test', '[Standard] Number not ringing');
    expect(toSupport.body).toContain(`From: Grace Hopper <${email}>`);
    expect(toSupport.body).toContain('Plan: Premium (Standard support');
    expect(deliveredTo(email, 'We received your support request: Number not ringing').body).toContain('within 1 business day');
  });

  it('from Free: tagged [Free], due five business days later', async () => {
    const { browser } = await userOn('free');
    const request = (await send(browser, 'Free plan question')).json();
    expect(request.tier).toBe('free');
    expect(request.replyDueAt).toBe(replyDueAt({ businessDays: 5 }, new Date(request.createdAt)).toISOString());
    deliveredTo('support@voxline.test', '[Free] Free plan question');
  });

  it.each([
    ['an empty subject', { subject: '   ', message: 'Something is wrong here.' }, 'subject', 'subject: Subject is required'],
    ['a subject over 120 characters', { subject: 'x'.repeat(121), message: 'Something is wrong here.' }, 'subject', 'subject: Subject must be at most 120 characters'],
    ['a message under 10 characters', { subject: 'Help', message: ' help     ' }, 'message', 'message: Message must be at least 10 characters: say what happened'],
    ['a message over 5000 characters', { subject: 'Help', message: 'x'.repeat(5001) }, 'message', 'message: Message must be at most 5000 characters'],
    ['no message', { subject: 'Help' }, 'message', 'message: Message is required'],
  ])('refuses %s with 400 naming the field, keeping nothing', async (_label, body, field, message) => {
    const { browser, userId } = await userOn('free');
    const response = await browser.post('/api/v1/support', body);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code: 'invalid_input', field, message });
    expect(await testApp.database.db.select().from(supportRequests).where(eq(supportRequests.userId, userId))).toEqual([]);
  });

  it('takes at most 5 requests an hour from one user, then answers 429 naming the limit', async () => {
    const { browser, userId } = await userOn('platinum');
    for (let count = 1; count <= 5; count += 1) expect((await send(browser, `Question ${count}`)).statusCode).toBe(201);
    const refused = await send(browser, 'Question 6');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.message).toMatch(/^You can send at most 5 support requests an hour\. Try again in \d+ minutes?\.$/);
    expect(await testApp.database.db.select().from(supportRequests).where(eq(supportRequests.userId, userId))).toHaveLength(5);
    // Another user has a count of their own.
    expect((await send((await userOn('free')).browser, 'Not limited by the other user')).statusCode).toBe(201);
  });
});

describe('listing requests', () => {
  it('shows the user their own requests, newest first, and never another user’s', async () => {
    const ada = await userOn('premium');
    const bob = await userOn('platinum');
    expect((await send(ada.browser, 'First from Ada')).statusCode).toBe(201);
    expect((await send(bob.browser, 'From Bob')).statusCode).toBe(201);
    expect((await send(ada.browser, 'Second from Ada')).statusCode).toBe(201);

    const list = await ada.browser.get('/api/v1/support');
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().requests.map((request: { subject: string }) => request.subject)).toEqual(['Second from Ada', 'First from Ada']);
    expect((await bob.browser.get('/api/v1/support')).json().requests.map((request: { subject: string }) => request.subject)).toEqual(['From Bob']);
  });
});

describe('when the support inbox cannot be reached', () => {
  it('keeps the request as not delivered, answers 502 saying to send it again, and does not count it against the limit', async () => {
    const { browser, userId, email } = await userOn('platinum', inboxAway);
    const response = await send(browser, 'Inbox away');
    expect(response.statusCode).toBe(502);
    expect(response.json().error.message).toBe('Your message is saved, but it could not be sent to support just now. Please send it again in a few minutes.');

    const [row] = await inboxAway.database.db.select().from(supportRequests).where(eq(supportRequests.userId, userId));
    expect(row).toMatchObject({ subject: 'Inbox away', tier: 'platinum', deliveredAt: null });
    expect((await browser.get('/api/v1/support')).json().requests).toEqual([expect.objectContaining({ subject: 'Inbox away', delivered: false })]);
    // No acknowledgement promises an answer support never got.
    expect(smtp.deliveries.filter((delivery) => delivery.to.includes(email) && delivery.raw.includes('We received your support request'))).toEqual([]);

    for (let attempt = 2; attempt <= 6; attempt += 1) expect((await send(browser, `Inbox away ${attempt}`)).statusCode).toBe(502);
  });
});
