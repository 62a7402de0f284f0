import type { Redis } from 'ioredis';

/**
 * The ids (`jti`) of the Vonage webhooks already accepted, each kept until its token is too old
 * to pass anyway. Every instance must see the same ids, or a captured webhook could be replayed to
 * another one: with REDIS_URL they are kept in Redis, otherwise this process is the only instance.
 */
export interface WebhookIdStore {
  /**
   * Records `id` for `ttlSec` seconds: true when it was new, false when it was already recorded (a
   * replay). Throws when the store cannot be reached: nothing is accepted unchecked.
   */
  claim(id: string, ttlSec: number): Promise<boolean>;
}

export class MemoryWebhookIdStore implements WebhookIdStore {
  /** id → when it may be forgotten (ms). */
  private readonly seen = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  claim(id: string, ttlSec: number): Promise<boolean> {
    this.forgetOld();
    if (this.seen.has(id)) return Promise.resolve(false);
    this.seen.set(id, this.now() + ttlSec * 1000);
    return Promise.resolve(true);
  }

  private forgetOld() {
    const now = this.now();
    // Entries arrive in about the order they expire: stop at the first one still needed.
    for (const [id, until] of this.seen) {
      if (until >= now) break;
      this.seen.delete(id);
    }
  }
}

export class RedisWebhookIdStore implements WebhookIdStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'voxline:vonage-webhook-id:',
  ) {}

  async claim(id: string, ttlSec: number): Promise<boolean> {
    // One atomic command: of two instances given the same id at once, exactly one sets it.
    const answer = await this.redis.set(`${this.prefix}${id}`, '1', 'EX', Math.max(1, Math.ceil(ttlSec)), 'NX');
    return answer === 'OK';
  }
}
