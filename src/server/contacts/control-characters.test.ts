import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSignedInUser } from '../../../tests/support/accounts';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { capturingMailer } from '../../../tests/support/test-browser';
import { contacts } from './schema';

let testApp: TestApp;

beforeAll(async () => {
  testApp = await buildTestApp({ mailer: capturingMailer() });
});
afterAll(() => testApp.close());

const rowsOf = (userId: string) => testApp.database.db.select().from(contacts).where(eq(contacts.userId, userId));

// NUL reached PostgreSQL, which refused it: a 500, with the SQL and its parameters in the log.
describe('control characters in contacts', () => {
  it.each([
    ['NUL', 'Ada\u0000Lovelace'],
    ['an escape', 'Ada\u001b[2J'],
    ['a newline', 'Ada\nLovelace'],
    ['a line separator', 'Ada\u2028Lovelace'],
  ])('refuses %s in a new contact’s name with 400 naming the field, storing nothing', async (_label, name) => {
    const { browser, userId } = await newSignedInUser(testApp.app);
    const response = await browser.post('/api/v1/contacts', { name, phoneNumber: '+14155552671' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: { code: 'invalid_input', message: 'name: Name must not contain control characters', field: 'name' } });
    expect(await rowsOf(userId)).toEqual([]);
  });

  it('refuses NUL in a renamed contact, leaving it as it was', async () => {
    const { browser, userId } = await newSignedInUser(testApp.app);
    const created = await browser.post('/api/v1/contacts', { name: 'Grace Hopper', phoneNumber: '+14155552671', email: 'grace@example.com' });
    expect(created.statusCode, created.body).toBe(201);
    const before = await rowsOf(userId);

    for (const [field, value] of [
      ['name', 'Grace\u0000'],
      ['phoneNumber', '+1 415\u0000555 2671'],
      ['email', 'grace\u0000@example.com'],
    ] as const) {
      const response = await browser.patch(`/api/v1/contacts/${created.json().id}`, { [field]: value });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toMatchObject({ code: 'invalid_input', field });
      expect(response.json().error.message).toMatch(new RegExp(`^${field}: .* must not contain control characters$`));
    }
    expect(await rowsOf(userId)).toEqual(before);
  });

  it('refuses NUL in a search with 400 naming ?q=', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    const response = await browser.get('/api/v1/contacts?q=Ada%00');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: { code: 'invalid_input', message: 'q: Search must not contain control characters', field: 'q' } });
  });

  it('still finds a name written in any script', async () => {
    const { browser } = await newSignedInUser(testApp.app);
    expect((await browser.post('/api/v1/contacts', { name: 'Zoë 😀 Ōtsuka', phoneNumber: '+14155552671' })).statusCode).toBe(201);
    const found = await browser.get(`/api/v1/contacts?q=${encodeURIComponent('😀')}`);
    expect(found.json().contacts.map((contact: { name: string }) => contact.name)).toEqual(['Zoë 😀 Ōtsuka']);
  });
});
