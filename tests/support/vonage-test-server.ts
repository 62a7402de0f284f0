import { generateKeyPairSync } from 'node:crypto';
import type { CallTiming } from '../../src/server/calls/timing';
import type { DatabaseHandle } from '../../src/server/db/client';
import { FAKE_API_KEY, FAKE_API_SECRET, VonageNumbersFake, type FakeNumber } from '../fakes/vonage/vonage-numbers-fake';
import { FAKE_SIGNATURE_SECRET, VonageVoiceFake } from '../fakes/vonage/vonage-voice-fake';
import { freePort } from './free-port';
import { buildTestApp, type TestApp } from './test-app';
import { capturingMailer } from './test-browser';

export const APPLICATION_ID = 'aaaaaaaa-1111-2222-3333-444444444444';

const { privateKey, publicKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});

/** `count` US voice numbers for the Numbers fake to offer, `{prefix}100` on, one per renter of a test file. */
export function voiceNumbers(prefix: string, count: number): FakeNumber[] {
  return Array.from({ length: count }, (_, index) => ({
    country: 'US',
    msisdn: `${prefix}${String(100 + index)}`,
    type: 'mobile-lvn' as const,
    cost: '0.90',
    features: ['VOICE'],
  }));
}

/** Vonage's Numbers and Voice APIs, faked, for an application with this file's key pair. */
export async function startVonageFakes(inventory: FakeNumber[]) {
  const numbersFake = await VonageNumbersFake.start({ inventory });
  const voiceFake = await VonageVoiceFake.start({ applicationId: APPLICATION_ID, publicKey });
  return { numbersFake, voiceFake };
}

export interface VonageServer {
  testApp: TestApp;
  origin: string;
  wsBase: string;
}

/**
 * The app under TELEPHONY=vonage, pointed at the fakes and listening where they call it back.
 * `shared` makes it one of several instances: their Redis, and the first one's database.
 */
export async function startVonageServer(
  fakes: { numbersFake: VonageNumbersFake; voiceFake: VonageVoiceFake },
  callTiming: Partial<CallTiming>,
  shared: { redisUrl?: string; database?: DatabaseHandle } = {},
): Promise<VonageServer> {
  // Vonage must know where to call back before the server starts listening.
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const testApp = await buildTestApp({
    mailer: capturingMailer(),
    callTiming,
    ...(shared.database ? { database: shared.database } : {}),
    env: {
      ...(shared.redisUrl ? { REDIS_URL: shared.redisUrl } : {}),
      TELEPHONY: 'vonage',
      VONAGE_API_KEY: FAKE_API_KEY,
      VONAGE_API_SECRET: FAKE_API_SECRET,
      VONAGE_APPLICATION_ID: APPLICATION_ID,
      VONAGE_PRIVATE_KEY: privateKey,
      VONAGE_SIGNATURE_SECRET: FAKE_SIGNATURE_SECRET,
      VONAGE_REST_URL: fakes.numbersFake.url,
      VONAGE_API_URL: fakes.voiceFake.url,
      VONAGE_CALLBACK_URL: origin,
    },
  });
  await testApp.app.listen({ port, host: '127.0.0.1' });
  return { testApp, origin, wsBase: `ws://127.0.0.1:${port}` };
}
