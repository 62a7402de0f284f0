import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSignedInUser } from '../../../tests/support/accounts';
import { extendSubscription } from '../plans/service';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { capturingMailer, TestBrowser } from '../../../tests/support/test-browser';
import { contacts } from './schema';

let testApp: TestApp;

beforeAll(async () => {
  testApp = await buildTestApp({ mailer: capturingMailer() });
});
afterAll(() => testApp.close());

interface ContactAnswer {
  id: string;
  name: string;
  phoneNumber: string;
  email: string | null;
  voice: { voiceType: string; pitch: number; speed: number } | null;
}

async function add(browser: TestBrowser, body: Record<string, unknown>): Promise<ContactAnswer> {
  const response = await browser.post('/api/v1/contacts', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

const listOf = async (browser: TestBrowser, query = '') => {
  const response = await browser.get(`/api/v1/contacts${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().contacts as ContactAnswer[];
};

describe('every contacts route', () => {
  it('needs a session', async () => {
    const anonymous = new TestBrowser(testApp.app);
    const id = '00000000-0000-4000-8000-000000000000';
    expect((await anonymous.get('/api/v1/contacts')).statusCode).toBe(401);
    expect((await anonymous.post('/api/v1/contacts', { name: 'A', phoneNumber: '+14155552671' })).statusCode).toBe(401);
    expect((await anonymous.patch(`/api/v1/contacts/${id}`, { name: 'B' })).statusCode).toBe(401);
    expect((await anonymous.delete(`/api/v1/contacts/${id}`)).statusCode).toBe(401);
  });
});

describe('adding and listing contacts', () => {
  it('stores the phone number in E.164 and an empty email as null', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    const contact = await add(browser, { name: '  Grace Hopper ', phoneNumber: '(415) 555-2671', email: '' });
    expect(contact).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'Grace Hopper', phoneNumber: '+14155552671', email: null, voice: null });
    const withEmail = await add(browser, { name: 'Alan', phoneNumber: '+44 20 7946 0958', email: ' alan@example.com ' });
    expect(withEmail).toMatchObject({ phoneNumber: '+442079460958', email: 'alan@example.com' });
    const without = await add(browser, { name: 'Edsger', phoneNumber: '+31 20 123 4567' });
    expect(without.email).toBeNull();
  });

  it('reads a number without a country code in the country of the first rented number', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    const [offer] = (await browser.get('/api/v1/numbers/available?country=GB')).json().numbers;
    expect((await browser.post('/api/v1/numbers', { country: 'GB', phoneNumber: offer.phoneNumber })).statusCode).toBe(201);
    const contact = await add(browser, { name: 'London office', phoneNumber: '020 7946 0958' });
    expect(contact.phoneNumber).toBe('+442079460958');
  });

  it('lists contacts sorted by name, case-insensitively', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    for (const name of ['bob', 'Alice', 'Carol', 'alan']) await add(browser, { name, phoneNumber: '+14155552671' });
    expect((await listOf(browser)).map((contact) => contact.name)).toEqual(['alan', 'Alice', 'bob', 'Carol']);
  });

  it('searches name, phone and email case-insensitively (docs/product.md §5)', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    await add(browser, { name: 'Ada Lovelace', phoneNumber: '+442079460958', email: 'ada@engine.example' });
    await add(browser, { name: 'Charles Babbage', phoneNumber: '+14155552671', email: 'CHARLES@Example.com' });
    await add(browser, { name: 'Mary 100%_Somerville', phoneNumber: '+12125550123' });
    const names = async (query: string) => (await listOf(browser, `?q=${encodeURIComponent(query)}`)).map((contact) => contact.name);
    expect(await names('LOVE')).toEqual(['Ada Lovelace']);
    expect(await names('charles@example')).toEqual(['Charles Babbage']);
    expect(await names('engine')).toEqual(['Ada Lovelace']);
    expect(await names('4155')).toEqual(['Charles Babbage']);
    expect(await names('(415) 555-2671')).toEqual(['Charles Babbage']);
    expect(await names('+44')).toEqual(['Ada Lovelace']);
    expect(await names('%_')).toEqual(['Mary 100%_Somerville']);
    expect(await names('nobody')).toEqual([]);
    expect(await names('')).toHaveLength(3);
  });

  it.each([
    ['a missing name', { phoneNumber: '+14155552671' }, 'name', 'name: Name is required'],
    ['a blank name', { name: '   ', phoneNumber: '+14155552671' }, 'name', 'name: Name is required'],
    ['a missing phone number', { name: 'Ada' }, 'phoneNumber', 'phoneNumber: Phone number is required'],
    ['an invalid phone number', { name: 'Ada', phoneNumber: '12345' }, 'phoneNumber', 'Enter a valid phone number'],
    ['letters for a phone number', { name: 'Ada', phoneNumber: 'call me maybe' }, 'phoneNumber', 'Enter a valid phone number'],
    ['an invalid email', { name: 'Ada', phoneNumber: '+14155552671', email: 'ada@' }, 'email', 'email: Enter a valid email address'],
    ['a 10 kB name', { name: 'x'.repeat(10_000), phoneNumber: '+14155552671' }, 'name', 'name: Name must be at most 100 characters'],
    ['a 10 kB phone number', { name: 'Ada', phoneNumber: '1'.repeat(10_000) }, 'phoneNumber', 'phoneNumber: Phone number must be at most 32 characters'],
    ['a 10 kB email', { name: 'Ada', phoneNumber: '+14155552671', email: `${'x'.repeat(10_000)}@example.com` }, 'email', 'email: Email must be at most 254 characters'],
    ['a name of the wrong type', { name: 42, phoneNumber: '+14155552671' }, 'name', 'name: Name must be text'],
    ['a phone number of the wrong type', { name: 'Ada', phoneNumber: 14155552671 }, 'phoneNumber', 'phoneNumber: Phone number must be text'],
    ['an email of the wrong type', { name: 'Ada', phoneNumber: '+14155552671', email: ['a@b.co'] }, 'email', 'email: Email must be text'],
    ['an unknown field', { name: 'Ada', phoneNumber: '+14155552671', user_id: 'someone-else' }, 'body', undefined],
  ])('refuses %s with 400 naming the field, storing nothing', async (_label, body, field, message) => {
    const { browser, userId } = await newSignedInUser(testApp.app);
    const response = await browser.post('/api/v1/contacts', body);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code: 'invalid_input', field, ...(message ? { message } : {}) });
    expect(await listOf(browser)).toEqual([]);
    const rows = await testApp.database.db.select().from(contacts);
    expect(rows.filter((row) => row.userId === userId)).toEqual([]);
  });

  it('refuses a search longer than 100 characters', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    const response = await browser.get(`/api/v1/contacts?q=${'a'.repeat(101)}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.field).toBe('q');
  });
});

describe('editing and deleting contacts', () => {
  it('changes only the fields sent', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    const contact = await add(browser, { name: 'Ada', phoneNumber: '+14155552671', email: 'ada@example.com' });
    const renamed = await browser.patch(`/api/v1/contacts/${contact.id}`, { name: 'Ada Lovelace' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toEqual({ ...contact, name: 'Ada Lovelace' });
    const moved = await browser.patch(`/api/v1/contacts/${contact.id}`, { phoneNumber: '212 736 3100', email: '' });
    expect(moved.json()).toEqual({ ...contact, name: 'Ada Lovelace', phoneNumber: '+12127363100', email: null });
    expect(await listOf(browser)).toEqual([moved.json()]);
  });

  it.each([
    ['an invalid phone number', { phoneNumber: '999' }],
    ['an invalid email', { email: 'nope' }],
    ['a blank name', { name: '' }],
    ['nothing', {}],
    ['an unknown field', { userId: 'x' }],
  ])('refuses an edit with %s, changing nothing', async (_label, body) => {
    const { browser } = await newSignedInUser(testApp.app);
    const contact = await add(browser, { name: 'Ada', phoneNumber: '+14155552671' });
    expect((await browser.patch(`/api/v1/contacts/${contact.id}`, body)).statusCode).toBe(400);
    expect(await listOf(browser)).toEqual([contact]);
  });

  it('deletes a contact', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    const contact = await add(browser, { name: 'Ada', phoneNumber: '+14155552671' });
    const response = await browser.delete(`/api/v1/contacts/${contact.id}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ ok: true });
    expect(await listOf(browser)).toEqual([]);
    expect((await browser.delete(`/api/v1/contacts/${contact.id}`)).statusCode).toBe(404);
  });
});

describe('a contact\'s voice preset (issue 20 item 5)', () => {
  it('is kept with the contact, changed, and set back to the caller\'s own voice with null', async () => {
    const { browser, userId } = await newSignedInUser(testApp.app);
    await extendSubscription(testApp.database.db, userId, 'premium', new Date());
    const contact = await add(browser, { name: 'Ada', phoneNumber: '+14155552671', voice: { voiceType: 'normal', pitch: 1.5, speed: 1 } });
    expect(contact.voice).toEqual({ voiceType: 'normal', pitch: 1.5, speed: 1 });
    const faster = await browser.patch(`/api/v1/contacts/${contact.id}`, { voice: { voiceType: 'african', pitch: 0.8, speed: 1.2 } });
    expect(faster.json()).toEqual({ ...contact, voice: { voiceType: 'african', pitch: 0.8, speed: 1.2 } });
    const renamed = await browser.patch(`/api/v1/contacts/${contact.id}`, { name: 'Ada L' });
    expect(renamed.json().voice).toEqual({ voiceType: 'african', pitch: 0.8, speed: 1.2 });
    const ownVoice = await browser.patch(`/api/v1/contacts/${contact.id}`, { voice: null });
    expect(ownVoice.json()).toEqual({ ...contact, name: 'Ada L', voice: null });
  });

  it.each([
    ['a pitch above 2', { voiceType: 'normal', pitch: 2.1, speed: 1 }, 'voice.pitch: Pitch must be between 0.5 and 2'],
    ['a speed between steps', { voiceType: 'normal', pitch: 1, speed: 1.25 }, 'voice.speed: Speed must be in steps of 0.1'],
    ['an unknown accent', { voiceType: 'robot', pitch: 1, speed: 1 }, 'voice.voiceType: Voice type must be one of'],
    ['text', 'loud', 'voice: Voice must be null (use my default) or an object with voiceType, pitch and speed'],
    ['an unknown field', { voiceType: 'normal', pitch: 1, speed: 1, echo: true }, 'voice: Voice has unknown settings: echo'],
  ])('refuses %s with a clear error naming it', async (_label, voice, message) => {
    const { browser, userId } = await newSignedInUser(testApp.app);
    await extendSubscription(testApp.database.db, userId, 'platinum', new Date());
    const response = await browser.post('/api/v1/contacts', { name: 'Ada', phoneNumber: '+14155552671', voice });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().error.message).toContain(message);
    expect(await listOf(browser)).toEqual([]);
  });

  it('is refused beyond the plan, as the user\'s own settings are', async () => {
    const { browser, userId } = await newSignedInUser(testApp.app);
    const free = await browser.post('/api/v1/contacts', { name: 'Ada', phoneNumber: '+14155552671', voice: { voiceType: 'normal', pitch: 1.5, speed: 1 } });
    expect(free.statusCode).toBe(403);
    expect(free.json().error).toEqual({ code: 'plan_required', message: 'Voice changer needs Premium', field: 'voice' });
    await extendSubscription(testApp.database.db, userId, 'premium', new Date());
    const contact = await add(browser, { name: 'Ada', phoneNumber: '+14155552671' });
    const locked = await browser.patch(`/api/v1/contacts/${contact.id}`, { voice: { voiceType: 'chinese', pitch: 1, speed: 1 } });
    expect(locked.statusCode).toBe(403);
    expect(locked.json().error).toEqual({ code: 'plan_required', message: 'This accent needs Platinum', field: 'voice' });
    expect(await listOf(browser)).toEqual([contact]);
  });
});

describe('another user\'s contact', () => {
  it('is never listed, searched, edited or deleted: 404, exactly like a missing one', async () => {
    const ada = await newSignedInUser(testApp.app);
    const eve = await newSignedInUser(testApp.app);
    const contact = await add(ada.browser, { name: 'Secret friend', phoneNumber: '+14155552671' });
    expect(await listOf(eve.browser)).toEqual([]);
    expect(await listOf(eve.browser, '?q=Secret')).toEqual([]);
    for (const id of [contact.id, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const edit = await eve.browser.patch(`/api/v1/contacts/${id}`, { name: 'Mine now' });
      expect(edit.statusCode, id).toBe(404);
      expect(edit.json().error).toEqual({ code: 'not_found', message: 'Contact not found' });
      expect((await eve.browser.delete(`/api/v1/contacts/${id}`)).statusCode, id).toBe(404);
    }
    expect(await listOf(ada.browser)).toEqual([contact]);
  });
});
