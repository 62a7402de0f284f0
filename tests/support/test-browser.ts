import { randomInt } from 'node:crypto';
import type { App } from '../../src/server/app';
import type { MailMessage } from '../../src/server/mail/mail-message';
import type { Mailer } from '../../src/server/mail/mailer';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

// From a random start: with REDIS_URL, rate-limit counts outlive a run, and every test file would
// otherwise begin again at 10.0.0.1 and meet the sign-ups of the runs before it.
let browsers = randomInt(2 ** 24);

/**
 * One browser's view of the API: keeps its cookies between requests and sends our Origin, as a page
 * would. Each browser has an address of its own, so per-IP rate limits apply to it alone.
 */
export class TestBrowser {
  readonly cookies = new Map<string, string>();
  readonly ip: string;

  constructor(
    private readonly app: App,
    private readonly origin = 'http://localhost:3000',
  ) {
    browsers += 1;
    this.ip = `10.${(browsers >> 16) & 255}.${(browsers >> 8) & 255}.${browsers & 255}`;
  }

  async request(method: Method, url: string, body?: unknown, headers: Record<string, string> = {}) {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await this.app.inject({
      method,
      url,
      remoteAddress: this.ip,
      headers: { origin: this.origin, ...(cookie ? { cookie } : {}), ...headers },
      ...(body === undefined ? {} : { payload: body as object }),
    });
    for (const { name, value, maxAge, expires } of response.cookies) {
      const expired = maxAge === 0 || (expires !== undefined && expires.getTime() <= Date.now()) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  get = (url: string) => this.request('GET', url);
  post = (url: string, body?: unknown) => this.request('POST', url, body);
  patch = (url: string, body?: unknown) => this.request('PATCH', url, body);
  delete = (url: string) => this.request('DELETE', url);
}

/** A mailer that keeps what it is given, for tests to read. */
export function capturingMailer(): Mailer & { sent: MailMessage[]; lastTo(address: string): MailMessage } {
  const sent: MailMessage[] = [];
  return {
    sent,
    async send(message) {
      sent.push(message);
    },
    lastTo(address) {
      const message = sent.filter((m) => m.to === address).at(-1);
      if (!message) throw new Error(`no mail to ${address}; sent: ${sent.map((m) => m.to).join(', ')}`);
      return message;
    },
  };
}

export function linkIn(message: MailMessage): URL {
  const match = /https?:\/\/\S+/.exec(message.text);
  if (!match) throw new Error(`no link in mail "${message.subject}"`);
  return new URL(match[0]);
}

let counter = 0;
export function uniqueEmail(label = 'user') {
  counter += 1;
  return `${label}-${Date.now().toString(36)}-${counter}@example.com`;
}
