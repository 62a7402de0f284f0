import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FAKE_API_KEY, FAKE_API_SECRET, VonageNumbersFake } from '../../../../../tests/fakes/vonage/vonage-numbers-fake';
import { VonageVoiceFake } from '../../../../../tests/fakes/vonage/vonage-voice-fake';
import { TelephonyError, type TelephonyProvider } from '../telephony-provider';
import { createVonageProvider, resolvePrivateKey, type VonageSettings } from './vonage-provider';

const APPLICATION_ID = 'aaaaaaaa-bbbb-cccc-dddd-0123456789ab';
const keyPair = () => generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
const { privateKey, publicKey } = keyPair();

let fake: VonageNumbersFake;
let vonage: TelephonyProvider;

const settings = (overrides: Partial<VonageSettings> = {}): VonageSettings => ({
  apiKey: FAKE_API_KEY,
  apiSecret: FAKE_API_SECRET,
  applicationId: APPLICATION_ID,
  privateKey,
  restUrl: fake.url,
  apiUrl: fake.url,
  ...overrides,
});

beforeEach(async () => {
  fake = await VonageNumbersFake.start();
  vonage = createVonageProvider(settings());
});
afterEach(() => fake.close());

async function failureOf(promise: Promise<unknown>): Promise<TelephonyError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(TelephonyError);
  return error as TelephonyError;
}

describe('searching', () => {
  it('asks for voice numbers starting with the country code and the pattern, with basic auth', async () => {
    const offers = await vonage.searchNumbers({ country: 'US', startsWith: '415', limit: 10 });
    expect(offers).toEqual([
      { phoneNumber: '+14152007001', country: 'US', monthlyCost: { amountMinor: 90, currency: 'EUR' } },
      { phoneNumber: '+14152007002', country: 'US', monthlyCost: { amountMinor: 90, currency: 'EUR' } },
      { phoneNumber: '+14152007003', country: 'US', monthlyCost: { amountMinor: 90, currency: 'EUR' } },
    ]);
    const [request] = fake.requestsTo('GET', '/number/search');
    expect(request).toMatchObject({ auth: 'basic', query: { country: 'US', pattern: '1415', search_pattern: '0', features: 'VOICE', size: '10' } });
  });

  it('searches the whole country without a pattern', async () => {
    const offers = await vonage.searchNumbers({ country: 'GB', limit: 10 });
    expect(offers.map((offer) => offer.phoneNumber).sort()).toEqual(['+442079460958', '+447400123456']);
    expect(fake.requestsTo('GET', '/number/search')[0]!.query).not.toHaveProperty('pattern');
  });

  it('reads an empty answer as no numbers', async () => {
    expect(await vonage.searchNumbers({ country: 'US', startsWith: '999', limit: 10 })).toEqual([]);
  });

  it('reports bad credentials with Vonage\'s reason', async () => {
    const wrong = createVonageProvider(settings({ apiSecret: 'not-the-secret' }));
    const error = await failureOf(wrong.searchNumbers({ country: 'US', limit: 10 }));
    expect(error.failure).toBe('rejected');
    expect(error.message).toBe("Vonage rejected Voxline's credentials (authentication failed)");
  });

  it('reports a server error and an unreachable server', async () => {
    fake.failNext('GET', '/number/search', { status: 500, body: { 'error-code': '500', 'error-code-label': 'internal error' } });
    const error = await failureOf(vonage.searchNumbers({ country: 'US', limit: 10 }));
    expect(error.message).toBe('Vonage answered 500: internal error');

    const closed = await VonageNumbersFake.start();
    await closed.close();
    const unreachable = await failureOf(createVonageProvider(settings({ restUrl: closed.url })).searchNumbers({ country: 'US', limit: 10 }));
    expect(unreachable.failure).toBe('unreachable');
    expect(unreachable.message).toMatch(/^Vonage could not be reached: /);
  });
});

describe('renting', () => {
  it('buys the number, then points its inbound voice at our application', async () => {
    expect(await vonage.rentNumber({ country: 'US', phoneNumber: '+14152007001' })).toEqual({ monthlyCost: { amountMinor: 90, currency: 'EUR' } });
    const [buy] = fake.requestsTo('POST', '/number/buy');
    expect(buy).toMatchObject({ auth: 'basic', form: { country: 'US', msisdn: '14152007001' } });
    expect(fake.owned.has('14152007001')).toBe(true);
    expect(fake.balance).toBeCloseTo(99.1);

    await vonage.configureInboundVoice({ country: 'US', phoneNumber: '+14152007001' });
    expect(fake.requestsTo('POST', '/number/update')[0]!.form).toMatchObject({ country: 'US', msisdn: '14152007001', app_id: APPLICATION_ID });
    expect(fake.owned.get('14152007001')!.appId).toBe(APPLICATION_ID);
  });

  it('says a number is unavailable when it is no longer offered, without buying', async () => {
    fake.takeNumber('14152007001');
    const error = await failureOf(vonage.rentNumber({ country: 'US', phoneNumber: '+14152007001' }));
    expect(error).toMatchObject({ failure: 'number_unavailable', message: 'Number no longer available' });
    expect(fake.requestsTo('POST', '/number/buy')).toHaveLength(0);
  });

  it('says a number is unavailable when another buyer takes it between the search and the purchase (420)', async () => {
    fake.intercept('POST', '/number/buy', () => {
      fake.takeNumber('14152007002');
      return undefined;
    });
    const error = await failureOf(vonage.rentNumber({ country: 'US', phoneNumber: '+14152007002' }));
    expect(error.failure).toBe('number_unavailable');
    expect(fake.owned.size).toBe(0);
  });

  it('reports an insufficient balance (420 on a number still offered) as a refusal with the reason', async () => {
    fake.balance = 0.5;
    const error = await failureOf(vonage.rentNumber({ country: 'US', phoneNumber: '+14152007001' }));
    expect(error).toMatchObject({ failure: 'rejected', message: 'Vonage refused to sell the number: method failed' });
    expect(fake.owned.size).toBe(0);
  });

  it('reports bad credentials on purchase', async () => {
    fake.failNext('POST', '/number/buy', { status: 401, body: { 'error-code': '401', 'error-code-label': 'authentication failed' } });
    const error = await failureOf(vonage.rentNumber({ country: 'US', phoneNumber: '+14152007001' }));
    expect(error).toMatchObject({ failure: 'rejected', message: "Vonage rejected Voxline's credentials (authentication failed)" });
  });

  it('reports a failed routing update', async () => {
    await vonage.rentNumber({ country: 'US', phoneNumber: '+14152007001' });
    fake.failNext('POST', '/number/update', { status: 420, body: { 'error-code': '420', 'error-code-label': 'method failed' } });
    const error = await failureOf(vonage.configureInboundVoice({ country: 'US', phoneNumber: '+14152007001' }));
    expect(error).toMatchObject({ failure: 'rejected', message: 'Vonage answered 420: method failed' });
  });

  it('reads a 200 answer carrying an error code as a refusal', async () => {
    fake.failNext('POST', '/number/buy', { status: 200, body: { 'error-code': '420', 'error-code-label': 'Numbers from this country require an address' } });
    const error = await failureOf(vonage.rentNumber({ country: 'US', phoneNumber: '+14152007001' }));
    expect(error.message).toBe('Vonage refused to sell the number: Numbers from this country require an address');
  });
});

describe('releasing', () => {
  it('cancels the number', async () => {
    await vonage.rentNumber({ country: 'GB', phoneNumber: '+447400123456' });
    await vonage.releaseNumber({ country: 'GB', phoneNumber: '+447400123456' });
    expect(fake.requestsTo('POST', '/number/cancel')[0]).toMatchObject({ auth: 'basic', form: { country: 'GB', msisdn: '447400123456' } });
    expect(fake.owned.size).toBe(0);
    expect(fake.available.has('447400123456')).toBe(true);
  });

  it('counts a number the account no longer owns as released', async () => {
    await vonage.releaseNumber({ country: 'US', phoneNumber: '+14152007001' });
    expect(fake.requestsTo('GET', '/account/numbers')[0]!.query).toMatchObject({ pattern: '14152007001', search_pattern: '0' });
  });

  it('reports a refusal on a number the account still owns', async () => {
    await vonage.rentNumber({ country: 'US', phoneNumber: '+14152007001' });
    fake.failNext('POST', '/number/cancel', { status: 420, body: { 'error-code': '420', 'error-code-label': 'method failed' } });
    const error = await failureOf(vonage.releaseNumber({ country: 'US', phoneNumber: '+14152007001' }));
    expect(error).toMatchObject({ failure: 'rejected', message: 'Vonage refused to release the number: method failed' });
    expect(fake.owned.has('14152007001')).toBe(true);
  });
});

describe('routing', () => {
  it('names the numbers Vonage routes to our application: not one linked elsewhere, nor one no longer ours', async () => {
    for (const msisdn of ['14152007001', '14152007002', '447400123456']) {
      await vonage.rentNumber({ country: msisdn.startsWith('44') ? 'GB' : 'US', phoneNumber: `+${msisdn}` });
    }
    await vonage.configureInboundVoice({ country: 'US', phoneNumber: '+14152007001' });
    await vonage.configureInboundVoice({ country: 'GB', phoneNumber: '+447400123456' });
    fake.owned.get('447400123456')!.appId = 'another-application';
    expect(await vonage.routedNumbers!()).toEqual(new Set(['+14152007001']));
    expect(fake.requestsTo('GET', '/account/numbers')[0]!.query).toMatchObject({ application_id: APPLICATION_ID, size: '100', index: '1' });

    await vonage.releaseNumber({ country: 'US', phoneNumber: '+14152007001' });
    expect(await vonage.routedNumbers!()).toEqual(new Set());
  });

  it('reads every page of the account\'s numbers', async () => {
    const inventory = Array.from({ length: 150 }, (_, index) => ({ country: 'US', msisdn: `1415300${String(1000 + index)}`, type: 'mobile-lvn' as const, cost: '0.90', features: ['VOICE'] }));
    await fake.close();
    fake = await VonageNumbersFake.start({ inventory });
    vonage = createVonageProvider(settings());
    for (const number of inventory) fake.owned.set(number.msisdn, { ...number, appId: APPLICATION_ID });
    expect((await vonage.routedNumbers!()).size).toBe(150);
    expect(fake.requestsTo('GET', '/account/numbers').map((request) => request.query.index)).toEqual(['1', '2']);
  });

  it('reports a failure to read the numbers', async () => {
    fake.failNext('GET', '/account/numbers', { status: 401, body: { 'error-code': '401', 'error-code-label': 'authentication failed' } });
    const error = await failureOf(vonage.routedNumbers!());
    expect(error).toMatchObject({ failure: 'rejected', message: "Vonage rejected Voxline's credentials (authentication failed)" });
  });
});

describe('number formats at the edge', () => {
  it('answers E.164 to Voxline and sends Vonage msisdn only', async () => {
    const [offer] = await vonage.searchNumbers({ country: 'GB', startsWith: '7400', limit: 1 });
    expect(offer!.phoneNumber).toBe('+447400123456');
    await vonage.rentNumber({ country: 'GB', phoneNumber: offer!.phoneNumber });
    await vonage.configureInboundVoice({ country: 'GB', phoneNumber: offer!.phoneNumber });
    await vonage.releaseNumber({ country: 'GB', phoneNumber: offer!.phoneNumber });
    const sent = ['/number/search', '/number/buy', '/number/update', '/number/cancel'].flatMap((path) =>
      fake.requestsTo(path.endsWith('search') ? 'GET' : 'POST', path).map((request) => ({ ...request.query, ...request.form })),
    );
    expect(sent.map((fields) => fields.msisdn ?? fields.pattern)).toEqual(['447400', '447400123456', '447400123456', '447400123456', '447400123456']);
    for (const fields of sent) expect(Object.values(fields).join(' ')).not.toContain('+');
  });
});

describe('placing and hanging up calls', () => {
  let voice: VonageVoiceFake;
  let calls: NonNullable<TelephonyProvider['calls']>;
  const request = {
    callId: '0b7d3c9e-5a55-4c1e-9a86-8f1b8f0f7c11',
    from: '+14152007001',
    to: '+442079460958',
    mediaUrl: 'wss://voxline.example/api/v1/providers/vonage/media?token=one-time',
    eventUrl: 'https://voxline.example/api/v1/providers/vonage/events?call=0b7d3c9e-5a55-4c1e-9a86-8f1b8f0f7c11',
    ringTimeoutSec: 30,
  };

  beforeEach(async () => {
    voice = await VonageVoiceFake.start({ applicationId: APPLICATION_ID, publicKey });
    calls = createVonageProvider(settings({ apiUrl: voice.url })).calls!;
  });
  afterEach(() => voice.close());

  it('creates the call with a JWT, our NCCO (content-type with a hyphen) and our event URL; answers Vonage\'s uuid', async () => {
    const { providerCallId } = await calls.place(request);
    const [create] = voice.requestsTo('POST', '/v1/calls');
    expect(create!.authProblem).toBeNull();
    expect(create!.body).toEqual({
      to: [{ type: 'phone', number: '442079460958' }],
      from: { type: 'phone', number: '14152007001' },
      ncco: [
        {
          action: 'connect',
          endpoint: [{ type: 'websocket', uri: request.mediaUrl, 'content-type': 'audio/l16;rate=16000', headers: { callId: request.callId } }],
        },
      ],
      event_url: [request.eventUrl],
      ringing_timer: 30,
    });
    expect(providerCallId).toBe(voice.calls[0]!.uuid);
  });

  it('keeps the ringing timer within Vonage\'s 1 to 120 seconds', async () => {
    await calls.place({ ...request, ringTimeoutSec: 0.2 });
    await calls.place({ ...request, ringTimeoutSec: 600 });
    expect(voice.requestsTo('POST', '/v1/calls').map((create) => (create.body as { ringing_timer: number }).ringing_timer)).toEqual([1, 120]);
  });

  it('hangs up with PUT {action:hangup}; a call already over counts as hung up', async () => {
    const { providerCallId } = await calls.place(request);
    await calls.hangup(providerCallId);
    expect(voice.requestsTo('PUT', `/v1/calls/${providerCallId}`)[0]).toMatchObject({ authProblem: null, body: { action: 'hangup' } });
    expect(voice.calls[0]!.status).toBe('cancelled');
    await calls.hangup(providerCallId);
    await calls.hangup('00000000-0000-0000-0000-000000000000');
  });

  it('reports a JWT Vonage refuses, a request it finds invalid, and a failed hang-up', async () => {
    const stranger = createVonageProvider(settings({ apiUrl: voice.url, privateKey: keyPair().privateKey })).calls!;
    const refused = await failureOf(stranger.place(request));
    expect(refused).toMatchObject({ failure: 'rejected', message: "Vonage rejected Voxline's credentials (You did not provide correct credentials.)" });
    expect(voice.requestsTo('POST', '/v1/calls')[0]!.authProblem).toBe('bad signature');

    voice.failNext('POST', '/v1/calls', { status: 400, body: { type: 'https://developer.nexmo.com/api-errors#bad-request', title: 'Bad Request', detail: 'Invalid Content' } });
    expect((await failureOf(calls.place(request))).message).toBe('Vonage answered 400: Invalid Content');

    voice.failNext('PUT', '/v1/calls/some-call', { status: 500, body: { type: 'https://developer.nexmo.com/api-errors#internal', title: 'Internal Error' } });
    expect(await failureOf(calls.hangup('some-call'))).toMatchObject({ failure: 'rejected', message: 'Vonage answered 500: Internal Error' });
  });
});

describe('resolvePrivateKey', () => {
  it('takes PEM text, undoing escaped newlines, or reads a file', () => {
    expect(resolvePrivateKey(privateKey)).toBe(privateKey);
    expect(resolvePrivateKey(privateKey.replace(/\n/g, '\\n'))).toBe(privateKey);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'voxline-key-'));
    const file = path.join(dir, 'private.key');
    fs.writeFileSync(file, privateKey);
    try {
      expect(resolvePrivateKey(file)).toBe(privateKey);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
