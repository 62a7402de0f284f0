import type http from 'node:http';
import { startFakeHttpServer, type FakeHttpServer } from '../fake-http-server';

/**
 * A fake of Vonage's Numbers API (https://rest.nexmo.com) that answers the documented request and
 * response shapes (docs/providers.md#vonage-numbers, Vonage's numbers OpenAPI definition), errors included:
 * 401 authentication failed, 420 method failed (number not available, insufficient balance).
 * Tests point the SDK's restHost at it, read what it was sent, and make it fail.
 */

export interface FakeNumber {
  country: string;
  msisdn: string;
  type: 'landline' | 'mobile-lvn' | 'landline-toll-free';
  /** Monthly price in EUR, as Vonage writes it. */
  cost: string;
  features: string[];
}

export interface OwnedFakeNumber extends FakeNumber {
  appId?: string;
  voiceCallbackType?: string;
  voiceCallbackValue?: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  form: Record<string, string>;
  /** How the credentials came: an Authorization: Basic header, or api_key/api_secret parameters. */
  auth: 'basic' | 'parameters' | 'none';
}

export interface FakeAnswer {
  status: number;
  body: unknown;
}

type Interceptor = (request: RecordedRequest) => FakeAnswer | undefined;

export const FAKE_API_KEY = 'fake-key';
export const FAKE_API_SECRET = 'fake-secret';

/**
 * Valid numbers (libphonenumber-js) that the fake offers unless a test gives its own. One is in the
 * fictional 555-01xx range, which Voxline must never offer, and one cannot take calls (SMS only).
 */
const defaultInventory: FakeNumber[] = [
  { country: 'US', msisdn: '14152007001', type: 'mobile-lvn', cost: '0.90', features: ['VOICE', 'SMS'] },
  { country: 'US', msisdn: '14152007002', type: 'mobile-lvn', cost: '0.90', features: ['VOICE', 'SMS'] },
  { country: 'US', msisdn: '14152007003', type: 'landline', cost: '0.90', features: ['VOICE'] },
  { country: 'US', msisdn: '12125550199', type: 'landline', cost: '0.90', features: ['VOICE'] },
  { country: 'US', msisdn: '12127363100', type: 'landline', cost: '0.90', features: ['SMS'] },
  { country: 'GB', msisdn: '447400123456', type: 'mobile-lvn', cost: '1.25', features: ['VOICE', 'SMS'] },
  { country: 'GB', msisdn: '442079460958', type: 'landline', cost: '1.00', features: ['VOICE'] },
];

const json = (status: number, body: unknown): FakeAnswer => ({ status, body });
const result = (code: string, label: string) => json(Number(code), { 'error-code': code, 'error-code-label': label });
const success = () => result('200', 'success');
const methodFailed = () => result('420', 'method failed');
const authenticationFailed = () => result('401', 'authentication failed');

function matches(msisdn: string, pattern: string | undefined, searchPattern: string | undefined): boolean {
  if (!pattern) return true;
  // The API's default strategy is 0, "starts with" (the pattern includes the country code).
  switch (searchPattern ?? '0') {
    case '1':
      return msisdn.includes(pattern);
    case '2':
      return msisdn.endsWith(pattern);
    default:
      return msisdn.startsWith(pattern);
  }
}

function page<T>(items: T[], query: Record<string, string>): T[] {
  const size = Math.min(Number(query.size ?? 10) || 10, 100);
  const index = Math.max(Number(query.index ?? 1) || 1, 1);
  return items.slice((index - 1) * size, index * size);
}

export class VonageNumbersFake {
  readonly requests: RecordedRequest[] = [];
  readonly available = new Map<string, FakeNumber>();
  readonly owned = new Map<string, OwnedFakeNumber>();
  /** Account balance in EUR; a purchase costing more fails with 420, as Vonage does. */
  balance: number;
  private readonly interceptors: { method: string; path: string; handle: Interceptor }[] = [];
  private server?: FakeHttpServer;
  url = '';

  constructor(options: { inventory?: FakeNumber[]; balance?: number } = {}) {
    for (const number of options.inventory ?? defaultInventory) this.available.set(number.msisdn, { ...number });
    this.balance = options.balance ?? 100;
  }

  static async start(options?: { inventory?: FakeNumber[]; balance?: number }): Promise<VonageNumbersFake> {
    const fake = new VonageNumbersFake(options);
    await fake.listen();
    return fake;
  }

  /** The next request to method and path goes to `handle` first; an answer it returns is sent instead. */
  intercept(method: string, path: string, handle: Interceptor) {
    this.interceptors.push({ method, path, handle });
  }

  /** The next request to method and path fails with this status and body. */
  failNext(method: string, path: string, answer: FakeAnswer) {
    this.intercept(method, path, () => answer);
  }

  /** Someone else buys the number: it leaves the inventory without becoming ours. */
  takeNumber(msisdn: string) {
    this.available.delete(msisdn);
  }

  requestsTo(method: string, path: string) {
    return this.requests.filter((request) => request.method === method && request.path === path);
  }

  async close() {
    await this.server?.close();
  }

  private async listen() {
    this.server = await startFakeHttpServer((request, rawBody) => this.handle(request, rawBody));
    this.url = this.server.url;
  }

  private handle(request: http.IncomingMessage, rawBody: string): FakeAnswer {
    const url = new URL(request.url ?? '/', 'http://fake');
    const query = Object.fromEntries(url.searchParams);
    const isForm = (request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
    const form = isForm ? Object.fromEntries(new URLSearchParams(rawBody)) : {};
    const params = { ...query, ...form };

    let auth: RecordedRequest['auth'] = 'none';
    let key: string | undefined;
    let secret: string | undefined;
    const header = request.headers.authorization;
    if (header?.startsWith('Basic ')) {
      auth = 'basic';
      [key, secret] = Buffer.from(header.slice(6), 'base64').toString('utf8').split(':');
    } else if (params.api_key !== undefined) {
      auth = 'parameters';
      key = params.api_key;
      secret = params.api_secret;
    }

    const recorded: RecordedRequest = { method: request.method ?? 'GET', path: url.pathname, query, form, auth };
    this.requests.push(recorded);

    const index = this.interceptors.findIndex((entry) => entry.method === recorded.method && entry.path === recorded.path);
    if (index >= 0) {
      const [interceptor] = this.interceptors.splice(index, 1);
      const intercepted = interceptor!.handle(recorded);
      if (intercepted) return intercepted;
    }

    if (key !== FAKE_API_KEY || secret !== FAKE_API_SECRET) return authenticationFailed();

    switch (`${recorded.method} ${recorded.path}`) {
      case 'GET /number/search':
        return this.search(params);
      case 'POST /number/buy':
        return this.buy(params);
      case 'POST /number/update':
        return this.update(params);
      case 'POST /number/cancel':
        return this.cancel(params);
      case 'GET /account/numbers':
        return this.listOwned(params);
      default:
        return json(404, { 'error-code': '404', 'error-code-label': 'not found' });
    }
  }

  private search(params: Record<string, string>): FakeAnswer {
    if (!params.country) return json(400, { 'error-code': '400', 'error-code-label': 'country is required' });
    const features = params.features ? params.features.split(',') : [];
    const found = [...this.available.values()].filter(
      (number) =>
        number.country === params.country &&
        (!params.type || number.type === params.type) &&
        features.every((feature) => number.features.includes(feature)) &&
        matches(number.msisdn, params.pattern, params.search_pattern),
    );
    // With no match Vonage may answer an empty object.
    if (found.length === 0) return json(200, {});
    return json(200, { count: found.length, numbers: page(found, params) });
  }

  private buy(params: Record<string, string>): FakeAnswer {
    if (!params.country || !params.msisdn) return json(400, { 'error-code': '400', 'error-code-label': 'country and msisdn are required' });
    const number = this.available.get(params.msisdn);
    if (!number || number.country !== params.country) return methodFailed();
    const cost = Number(number.cost);
    if (cost > this.balance) return methodFailed();
    this.balance -= cost;
    this.available.delete(number.msisdn);
    this.owned.set(number.msisdn, { ...number });
    return success();
  }

  private update(params: Record<string, string>): FakeAnswer {
    const number = params.msisdn ? this.owned.get(params.msisdn) : undefined;
    if (!number || number.country !== params.country) return methodFailed();
    if (params.app_id) number.appId = params.app_id;
    if (params.voiceCallbackType) number.voiceCallbackType = params.voiceCallbackType;
    if (params.voiceCallbackValue) number.voiceCallbackValue = params.voiceCallbackValue;
    return success();
  }

  private cancel(params: Record<string, string>): FakeAnswer {
    const number = params.msisdn ? this.owned.get(params.msisdn) : undefined;
    if (!number || number.country !== params.country) return methodFailed();
    this.owned.delete(number.msisdn);
    const { appId: _appId, voiceCallbackType: _type, voiceCallbackValue: _value, ...offer } = number;
    this.available.set(offer.msisdn, offer);
    return success();
  }

  private listOwned(params: Record<string, string>): FakeAnswer {
    const found = [...this.owned.values()].filter(
      (number) =>
        (!params.country || number.country === params.country) &&
        (!params.application_id || number.appId === params.application_id) &&
        matches(number.msisdn, params.pattern, params.search_pattern),
    );
    return json(200, {
      count: found.length,
      numbers: page(found, params).map(({ appId, ...number }) => ({ ...number, ...(appId ? { app_id: appId } : {}) })),
    });
  }
}
