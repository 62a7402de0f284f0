import { randomInt, randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { TEST_PASSWORD } from './accounts';

export interface HttpResponse {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whatever the API answered
  body: any;
}

/**
 * One browser talking over real HTTP to servers in other processes (several instances behind a
 * load balancer: any request may go to any of them). Keeps its cookies, sends the public Origin,
 * and gives a proxy-trusting server an address of its own in X-Forwarded-For, so that per-address
 * limits kept in a shared Redis never carry over between runs.
 */
export class HttpBrowser {
  readonly cookies = new Map<string, string>();
  readonly ip = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

  constructor(private readonly origin = 'http://localhost:3000') {}

  async request(method: string, url: string, body?: unknown): Promise<HttpResponse> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(url, {
      method,
      headers: {
        origin: this.origin,
        'x-forwarded-for': this.ip,
        ...(cookie ? { cookie } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = header.split(';');
      const name = pair.slice(0, pair.indexOf('=')).trim();
      const value = pair.slice(pair.indexOf('=') + 1);
      const expired = value === '' || attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute));
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  }

  get = (url: string) => this.request('GET', url);
  post = (url: string, body?: unknown) => this.request('POST', url, body);
}

/** Someone signed up and signed in over HTTP at serverUrl, renting a US number there. */
export async function signedUpWithNumber(serverUrl: string, fullName: string) {
  const browser = new HttpBrowser();
  const email = `${randomUUID()}@example.com`;
  const signUp = await browser.post(`${serverUrl}/api/v1/auth/sign-up`, { fullName, email, password: TEST_PASSWORD });
  expect(signUp.status, JSON.stringify(signUp.body)).toBe(201);
  const signIn = await browser.post(`${serverUrl}/api/v1/auth/sign-in`, { email, password: TEST_PASSWORD });
  expect(signIn.status, JSON.stringify(signIn.body)).toBe(200);
  const offers = await browser.get(`${serverUrl}/api/v1/numbers/available?country=US`);
  const rented = await browser.post(`${serverUrl}/api/v1/numbers`, { country: 'US', phoneNumber: offers.body.numbers[0].phoneNumber });
  expect(rented.status, JSON.stringify(rented.body)).toBe(201);
  return { browser, number: rented.body.phoneNumber as string };
}
