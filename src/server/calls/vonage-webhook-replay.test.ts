import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VonageNumbersFake } from '../../../tests/fakes/vonage/vonage-numbers-fake';
import { FAKE_SIGNATURE_SECRET, signWebhook, type VonageVoiceFake } from '../../../tests/fakes/vonage/vonage-voice-fake';
import { APPLICATION_ID, startVonageFakes, startVonageServer, type VonageServer } from '../../../tests/support/vonage-test-server';
import { installErrorHandling } from '../http/error-handler';
import { RedisWebhookIdStore } from '../providers/telephony/vonage/webhook-ids';
import { createRedisClient } from '../redis/redis-client';
import type { CallService } from './call-service';
import { vonageProviderRoutes } from './provider-routes';

// A webhook captured on its way to one instance must not be accepted by another: the ids (jti) of
// accepted webhooks are kept in the Redis every instance shares.

/** A call event Vonage might send, signed once: the same bytes and token can be sent again. */
function capturedEvent() {
  const body = JSON.stringify({ uuid: randomUUID(), status: 'completed', direction: 'outbound', timestamp: new Date().toISOString() });
  const authorization = `Bearer ${signWebhook(body, FAKE_SIGNATURE_SECRET, { applicationId: APPLICATION_ID })}`;
  return { method: 'POST' as const, url: '/api/v1/providers/vonage/events', headers: { 'content-type': 'application/json', authorization }, payload: body };
}

describe.skipIf(!process.env.TEST_REDIS_URL)('a Vonage webhook replayed to another instance', () => {
  let numbersFake: VonageNumbersFake;
  let voiceFake: VonageVoiceFake;
  let one: VonageServer;
  let two: VonageServer;

  beforeAll(async () => {
    ({ numbersFake, voiceFake } = await startVonageFakes([]));
    const redisUrl = process.env.TEST_REDIS_URL ?? '';
    one = await startVonageServer({ numbersFake, voiceFake }, {}, { redisUrl });
    two = await startVonageServer({ numbersFake, voiceFake }, {}, { redisUrl });
  });
  afterAll(async () => {
    await two?.testApp.close();
    await one?.testApp.close();
    await voiceFake?.close();
    await numbersFake?.close();
  });

  it('is refused by instance 2 once instance 1 accepted it', async () => {
    const event = capturedEvent();
    const accepted = await one.testApp.app.inject(event);
    expect(accepted.statusCode, accepted.body).toBe(200);
    const replayed = await two.testApp.app.inject(event);
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json().error).toEqual({ code: 'invalid_signature', message: 'The webhook signature could not be verified' });
    expect((await one.testApp.app.inject(event)).statusCode).toBe(401);
  });

  it('is refused by instance 1 once instance 2 accepted it', async () => {
    const event = capturedEvent();
    expect((await two.testApp.app.inject(event)).statusCode).toBe(200);
    expect((await one.testApp.app.inject(event)).statusCode).toBe(401);
  });
});

describe('a Vonage webhook while Redis cannot be reached', () => {
  it('answers 503, so that Vonage sends it again, and acts on nothing', async () => {
    const unreachable = createRedisClient('redis://127.0.0.1:1');
    const received: string[] = [];
    const calls = { receiveProviderEvent: async (uuid: string) => void received.push(uuid) } as unknown as CallService;
    const app = Fastify();
    try {
      installErrorHandling(app);
      await app.register(vonageProviderRoutes, {
        prefix: '/api/v1/providers/vonage',
        calls,
        vonage: { signatureSecret: FAKE_SIGNATURE_SECRET, applicationId: APPLICATION_ID, seenIds: new RedisWebhookIdStore(unreachable) },
      });
      const response = await app.inject(capturedEvent());
      expect(response.statusCode).toBe(503);
      expect(response.json().error.code).toBe('redis_unavailable');
      expect(received).toEqual([]);
    } finally {
      await app.close();
      unreachable.disconnect();
    }
  });
});
