import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { MemoryWebhookIdStore, type WebhookIdStore } from './webhook-ids';

/** How old a webhook's signature may be, and how far ahead of our clock Vonage's may run. */
const MAX_AGE_SEC = 300;
const CLOCK_SKEW_SEC = 60;

export type WebhookVerdict = { ok: true } | { ok: false; reason: string };

export interface WebhookVerifierOptions {
  /** The account's signature secret (dashboard, API settings): the HS256 key. */
  signatureSecret: string;
  /** A token naming another application is refused. */
  applicationId: string;
  /** The ids already accepted; shared by every instance when there are several (in memory by default). */
  seenIds?: WebhookIdStore;
  now?: () => number;
}

function decodeJson(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * Checks Vonage's signed webhooks (docs/providers.md#vonage-webhooks): `Authorization: Bearer <JWT>` signed HS256 with
 * the signature secret, whose `payload_hash` is the SHA-256 of the raw body. Beyond the signature
 * (all that @vonage/jwt's verifySignature checks) it refuses a changed body, a stale or future
 * `iat`, another application's token, and a `jti` seen before (by any instance sharing `seenIds`),
 * so a captured webhook cannot be replayed. Rejects when `seenIds` cannot be reached.
 */
export class VonageWebhookVerifier {
  private readonly key: Buffer;
  private readonly seenIds: WebhookIdStore;
  private readonly now: () => number;

  constructor(private readonly options: WebhookVerifierOptions) {
    this.key = Buffer.from(options.signatureSecret, 'utf8');
    this.now = options.now ?? Date.now;
    this.seenIds = options.seenIds ?? new MemoryWebhookIdStore(this.now);
  }

  async verify(authorization: string | undefined, rawBody: Buffer): Promise<WebhookVerdict> {
    const match = /^Bearer ([\w-]+)\.([\w-]+)\.([\w-]+)$/.exec(authorization?.trim() ?? '');
    if (!match) return { ok: false, reason: 'no bearer token' };
    const [, headerPart, claimsPart, signaturePart] = match as unknown as [string, string, string, string];

    const header = decodeJson(headerPart);
    if (header?.alg !== 'HS256') return { ok: false, reason: 'not an HS256 token' };
    const expected = createHmac('sha256', this.key).update(`${headerPart}.${claimsPart}`).digest();
    const given = Buffer.from(signaturePart, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'bad signature' };

    const claims = decodeJson(claimsPart);
    if (!claims) return { ok: false, reason: 'unreadable claims' };
    const bodyHash = createHash('sha256').update(rawBody).digest('hex');
    if (typeof claims.payload_hash !== 'string' || claims.payload_hash.toLowerCase() !== bodyHash) return { ok: false, reason: 'body does not match payload_hash' };

    const nowSec = Math.floor(this.now() / 1000);
    const iat = claims.iat;
    if (typeof iat !== 'number' || iat < nowSec - MAX_AGE_SEC || iat > nowSec + CLOCK_SKEW_SEC) return { ok: false, reason: 'stale or missing iat' };
    if (typeof claims.exp === 'number' && claims.exp <= nowSec) return { ok: false, reason: 'expired' };
    if (claims.application_id !== undefined && claims.application_id !== this.options.applicationId) return { ok: false, reason: 'another application' };

    const jti = claims.jti;
    if (typeof jti !== 'string' || !jti) return { ok: false, reason: 'missing jti' };
    // Kept until the iat is too old to pass even on an instance whose clock runs a little behind.
    const ttlSec = iat + MAX_AGE_SEC + CLOCK_SKEW_SEC - nowSec;
    if (!(await this.seenIds.claim(jti, ttlSec))) return { ok: false, reason: 'replayed jti' };
    return { ok: true };
  }
}
