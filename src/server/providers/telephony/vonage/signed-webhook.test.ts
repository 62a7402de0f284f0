import { describe, expect, it } from 'vitest';
import { signWebhook } from '../../../../../tests/fakes/vonage/vonage-voice-fake';
import { VonageWebhookVerifier } from './signed-webhook';
import { MemoryWebhookIdStore, type WebhookIdStore } from './webhook-ids';

const SECRET = 'signature-secret';
const APPLICATION_ID = 'app-1';
const NOW = Date.UTC(2026, 0, 1, 12);
const nowSec = NOW / 1000;
const body = '{"uuid":"abc","status":"answered"}';

function verifier(now = NOW, seenIds?: WebhookIdStore) {
  return new VonageWebhookVerifier({ signatureSecret: SECRET, applicationId: APPLICATION_ID, now: () => now, ...(seenIds ? { seenIds } : {}) });
}

const bearer = (token: string) => `Bearer ${token}`;
const signed = (claims: Parameters<typeof signWebhook>[2] = {}, text = body) => bearer(signWebhook(text, SECRET, { iat: nowSec, applicationId: APPLICATION_ID, ...claims }));

describe('VonageWebhookVerifier', () => {
  it('accepts a token signed with the secret over this body, once', async () => {
    const check = verifier();
    const authorization = signed({ jti: 'one' });
    expect(await check.verify(authorization, Buffer.from(body))).toEqual({ ok: true });
    expect(await check.verify(authorization, Buffer.from(body))).toEqual({ ok: false, reason: 'replayed jti' });
    expect(await check.verify(signed({ jti: 'two' }), Buffer.from(body))).toEqual({ ok: true });
  });

  it.each([
    ['no header', undefined, 'no bearer token'],
    ['another scheme', 'Basic a2V5OnNlY3JldA==', 'no bearer token'],
    ['another secret', bearer(signWebhook(body, 'guess', { iat: nowSec })), 'bad signature'],
    ['another body', signed({}, '{"uuid":"abc","status":"completed"}'), 'body does not match payload_hash'],
    ['a wrong payload_hash', signed({ payloadHash: '0'.repeat(64) }), 'body does not match payload_hash'],
    ['an old iat', signed({ iat: nowSec - 301 }), 'stale or missing iat'],
    ['an iat from the future', signed({ iat: nowSec + 120 }), 'stale or missing iat'],
    ['another application', signed({ applicationId: 'app-2' }), 'another application'],
    ['alg none', bearer(`${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${signWebhook(body, SECRET).split('.')[1]}.x`), 'not an HS256 token'],
  ])('refuses %s', async (_label, authorization, reason) => {
    expect(await verifier().verify(authorization, Buffer.from(body))).toEqual({ ok: false, reason });
  });

  it('allows a little clock skew and forgets used ids once they could not pass anyway', async () => {
    let now = NOW;
    const check = new VonageWebhookVerifier({ signatureSecret: SECRET, applicationId: APPLICATION_ID, now: () => now });
    expect((await check.verify(signed({ iat: nowSec + 30, jti: 'early' }), Buffer.from(body))).ok).toBe(true);
    now += 10 * 60_000;
    const late = signed({ iat: now / 1000, jti: 'early' });
    expect(await check.verify(late, Buffer.from(body))).toEqual({ ok: true });
  });

  it('keeps an id until its iat could not pass even with the clock skew, and refuses a replay to another verifier sharing the store', async () => {
    const claimed: [string, number][] = [];
    const shared = new MemoryWebhookIdStore(() => NOW);
    const recording: WebhookIdStore = {
      claim: (id, ttlSec) => {
        claimed.push([id, ttlSec]);
        return shared.claim(id, ttlSec);
      },
    };
    const authorization = signed({ jti: 'shared', iat: nowSec - 100 });
    expect(await verifier(NOW, recording).verify(authorization, Buffer.from(body))).toEqual({ ok: true });
    expect(await verifier(NOW, recording).verify(authorization, Buffer.from(body))).toEqual({ ok: false, reason: 'replayed jti' });
    expect(claimed[0]).toEqual(['shared', 300 + 60 - 100]);
  });

  it('rejects, accepting nothing, when the store of ids cannot be reached', async () => {
    const unreachable: WebhookIdStore = { claim: () => Promise.reject(new Error('Connection is closed.')) };
    await expect(verifier(NOW, unreachable).verify(signed({ jti: 'lost' }), Buffer.from(body))).rejects.toThrow('Connection is closed.');
  });
});
