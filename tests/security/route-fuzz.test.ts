import { getTableName, is, sql } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../../src/server/db/schema';
import { newSignedInUser } from '../support/accounts';
import { cookieHeader } from '../support/media-client';
import type { TestApp } from '../support/test-app';
import { buildAppWithRouteTable, fillParams, routeName, type Route } from './route-table';
import { arbitraryFor, hostile, type Samples } from './zod-arbitrary';

/**
 * Property-based fuzzing of every API route with a zod schema, driven by that schema: requests a
 * signed-in user with a valid Origin could send, mixing real values with hostile ones. Each must
 * answer below 500; a refusal answers the one error shape and changes no row.
 * FUZZ_SEED=<n> replays a run (the seed is printed); FUZZ_REQUESTS=<n> sets the total.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20_160_808);
const TOTAL_REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 10_000);
const ORIGIN = 'http://localhost:3000';

/** Rows written by the server's own timers, not by requests: its heartbeat in the list of instances. */
const BACKGROUND_TABLES = new Set<string>([getTableName(schema.serverInstances)]);

const tables = (Object.values(schema) as unknown[])
  .filter((value): value is PgTable => is(value, PgTable))
  .map((table): string => getTableName(table))
  .filter((name) => !BACKGROUND_TABLES.has(name))
  .sort();

/** One md5 per table over its rows' text, in one query: cheap enough to take after every request. */
const digestQuery = sql.raw(
  `select ${tables.map((name) => `(select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) from "${name}" t) as "${name}"`).join(', ')}`,
);

let testApp: TestApp;
let fuzzRoutes: Route[];
let cookie: string;
let samples: Samples;
let requests = 0;
let digests = 0;
const statuses = new Map<number, number>();
let cpuSeconds = 0;
const started = Date.now();

async function digest(): Promise<Record<string, string>> {
  const result = (await testApp.database.db.execute(digestQuery)) as unknown as { rows: Record<string, string>[] } | Record<string, string>[];
  return (Array.isArray(result) ? result[0] : result.rows[0])!;
}

async function walPosition(): Promise<string> {
  const result = (await testApp.database.db.execute(sql`select pg_current_wal_lsn()::text as position`)) as unknown as { rows: { position: string }[] } | { position: string }[];
  return (Array.isArray(result) ? result[0] : result.rows[0])!.position;
}

const zodOf = (value: unknown) => (value && typeof value === 'object' && '_zod' in value ? value : null);

interface FuzzRequest {
  params: Record<string, unknown>;
  query: Record<string, unknown> | unknown;
  body: unknown;
  raw: string | null;
}

function requestArbitrary(route: Route): fc.Arbitrary<FuzzRequest> {
  const { params, querystring, body } = (route.options.schema ?? {}) as Record<string, unknown>;
  const paramNames = [...route.url.matchAll(/:(\w+)/g)].map((match) => match[1]!);
  const paramsShape = zodOf(params) as { shape?: Record<string, unknown> } | null;
  const paramArbitraries = Object.fromEntries(paramNames.map((name) => [name, paramsShape?.shape?.[name] ? arbitraryFor(paramsShape.shape[name], samples, name) : hostile]));
  // Bodies that are not the JSON the schema reads, now and then: broken, empty, scalar.
  const raw = fc.option(fc.constantFrom('{"a":', '', 'null', '[]', '"text"', '{"a":1}{"b":2}', '\u0000'), { freq: 12 });
  return fc.record({
    params: fc.record(paramArbitraries),
    query: zodOf(querystring) ? arbitraryFor(querystring, samples) : fc.constant({}),
    body: zodOf(body) ? arbitraryFor(body, samples) : fc.constant(undefined),
    raw: zodOf(body) ? raw : fc.constant(null),
  });
}

const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value) ?? '');

function urlOf(route: Route, request: FuzzRequest): string {
  const params = Object.fromEntries(Object.entries(request.params).map(([name, value]) => [name, asText(value)]));
  const path = fillParams(route.url, params);
  const query = new URLSearchParams();
  if (request.query && typeof request.query === 'object' && !Array.isArray(request.query)) {
    for (const [name, value] of Object.entries(request.query)) {
      for (const item of Array.isArray(value) ? value : [value]) if (item !== undefined) query.append(name, asText(item));
    }
  } else if (request.query !== undefined) {
    query.append('q', asText(request.query));
  }
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

function checkErrorShape(label: string, status: number, text: string) {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`${label}: ${status} with a body that is not JSON: ${text.slice(0, 200)}`);
  }
  const { error, ...rest } = body as { error?: Record<string, unknown> };
  // The compatibility route swift-payment also answers docs/product.md §8's success and message beside it.
  expect(Object.keys(rest).filter((key) => key !== 'success' && key !== 'message'), label).toEqual([]);
  expect(error, label).toBeTypeOf('object');
  expect(typeof error!.code, label).toBe('string');
  expect(typeof error!.message, label).toBe('string');
  expect(Object.keys(error!).filter((key) => !['code', 'message', 'field'].includes(key)), label).toEqual([]);
  if ('field' in error!) expect(typeof error!.field, label).toBe('string');
}

beforeAll(async () => {
  let routes: Route[];
  ({ testApp, routes } = await buildAppWithRouteTable());
  fuzzRoutes = routes.filter((route) => {
    const { params, querystring, body } = (route.options.schema ?? {}) as Record<string, unknown>;
    return route.method !== 'HEAD' && !route.websocket && Boolean(zodOf(params) || zodOf(querystring) || zodOf(body));
  });

  const { browser, userId } = await newSignedInUser(testApp.app, 'Fuzz User');
  cookie = cookieHeader(browser.cookies);
  const contact = await browser.post('/api/v1/contacts', { name: 'Fuzzed', phoneNumber: '+14155552671' });
  const payment = await browser.post('/api/v1/payments', { planType: 'premium' });
  const reference = payment.json().reference as string;
  const contactId = contact.json().id as string;
  // No number of the user's is offered as `from`: a call placed would end by itself later, a write no request made.
  samples = {
    id: [contactId, '00000000-0000-4000-8000-000000000000', 'not-a-uuid'],
    reference: [reference, 'VXL-unknown'],
    action: ['searchNumbers', 'provisionNumber', 'listUserNumbers', 'initiateCall', 'initiateCallWithVoiceChange', 'createPaymentSession', 'verifyPayment', 'getPaymentReceipt'],
    payload: [
      { country: 'US', pattern: '415' },
      { country: 'US', msisdn: '14155550123', userId },
      { reference },
      { planType: 'premium', userId },
      { to: '+14155550100', from: '+14155550199' },
      { userId: 'someone-else' },
    ],
    country: ['US', 'gb', 'ZZ'],
    msisdn: ['14155550123', '+14155550124'],
    pattern: ['415', '+44 20'],
    phoneNumber: ['+14155552671', '4155552671'],
    to: ['+14155550100', '15005550006'],
    from: ['+14155550199'],
    email: ['fuzz@example.com', 'FUZZ@EXAMPLE.COM'],
    planType: ['premium', 'platinum', 'PREMIUM '],
    callbackUrl: ['http://localhost:3000/payment/receipt', 'https://attacker.example/'],
    code: ['123456', 'ABCD-EFGH'],
    voiceType: ['normal', 'russian'],
    pitch: [1, 0.5, 2, 1.05],
    speed: [1, 1.5],
  };
  console.log(`route fuzz: seed ${SEED} (replay with FUZZ_SEED=${SEED}), ${TOTAL_REQUESTS} requests over ${fuzzRoutes.length} routes`);
});

afterAll(async () => {
  const seconds = (Date.now() - started) / 1000;
  const answered = [...statuses].sort(([one], [two]) => one - two).map(([status, count]) => `${status}×${count}`).join(' ');
  console.log(`route fuzz: ${requests} requests in ${seconds.toFixed(1)} s (${cpuSeconds.toFixed(1)} s of CPU fuzzing), ${digests} table digests; answers ${answered}`);
  await testApp?.close();
});

describe('fuzzing every route with a zod schema', () => {
  it('finds the routes to fuzz', () => {
    expect(fuzzRoutes.map(routeName)).toEqual(expect.arrayContaining(['POST /api/v1/contacts', 'GET /api/v1/contacts', 'POST /functions/v1/vonage-phone', 'POST /functions/v1/swift-payment']));
  });

  it('answers below 500, refusals in the error shape, and a refusal changes no row', { timeout: 600_000 }, async () => {
    const perRoute = Math.ceil(TOTAL_REQUESTS / fuzzRoutes.length);
    const cpuBefore = process.cpuUsage();
    let state = { position: await walPosition(), rows: await digest() };
    // Every route is fuzzed even after one fails, so that a run reports all it found.
    const failures: string[] = [];
    for (const [index, route] of fuzzRoutes.entries()) {
      const run = fc.assert(
        fc.asyncProperty(requestArbitrary(route), async (request) => {
          const url = urlOf(route, request);
          const hasBody = request.raw !== null || request.body !== undefined;
          const response = await testApp.app.inject({
            method: route.method as 'POST',
            url,
            headers: { origin: ORIGIN, cookie, ...(hasBody ? { 'content-type': 'application/json' } : {}) },
            ...(hasBody ? { payload: request.raw ?? JSON.stringify(request.body) } : {}),
          });
          requests += 1;
          statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
          const label = `${routeName(route)} ${url.slice(0, 200)} → ${response.statusCode}`;
          expect(response.statusCode, `${label}: ${response.body.slice(0, 300)}`).toBeLessThan(500);
          if (response.statusCode >= 400) checkErrorShape(label, response.statusCode, response.body);
          // Every row written moves the write-ahead log: while it stands still, nothing changed.
          const position = await walPosition();
          if (position === state.position) return;
          const after = await digest();
          digests += 1;
          if (response.statusCode >= 400) {
            const changed = tables.filter((name) => state.rows[name] !== after[name]);
            expect(changed, `${label}: a refused request changed rows`).toEqual([]);
          }
          state = { position, rows: after };
        }),
        { numRuns: perRoute, seed: SEED + index, endOnFailure: true },
      );
      await run.catch((error: unknown) => {
        const { message, cause } = error as Error & { cause?: Error };
        const clip = (text: string) => (text.length > 400 ? `${text.slice(0, 400)}…` : text);
        failures.push(`${routeName(route)}: ${clip(message.split('\n').slice(0, 3).join(' '))}\n  ${clip(cause?.message.split('\n')[0] ?? '')}`);
      });
    }
    const cpu = process.cpuUsage(cpuBefore);
    cpuSeconds = (cpu.user + cpu.system) / 1e6;
    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThanOrEqual(TOTAL_REQUESTS);
  });
});
