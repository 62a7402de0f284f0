import type { Redis } from 'ioredis';
import type { Presence } from './presence';

export interface PresenceTiming {
  /** A listener not confirmed for this long is taken for gone (its instance crashed). */
  ttlMs: number;
  refreshMs: number;
}

/** Confirmed every 10 s, gone 30 s after the last confirmation: a crashed instance's listeners vanish within 30 s. */
const defaultPresenceTiming: PresenceTiming = { ttlMs: 30_000, refreshMs: 10_000 };

const KEY_PREFIX = 'voxline:listening:';

// Deadlines come from Redis's clock, so that instances whose clocks disagree still agree on them.
const NOW_MS = `local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)`;

/** KEYS: users' keys; ARGV: instance id, ttl. Marks the instance as listening for each until now + ttl. */
const MARK_SCRIPT = `${NOW_MS}
local ttl = tonumber(ARGV[2])
for _, key in ipairs(KEYS) do
  redis.call('HSET', key, ARGV[1], now + ttl)
  if redis.call('PTTL', key) < ttl then redis.call('PEXPIRE', key, ttl) end
end
return 0`;

/** KEYS[1]: a user's key. 1 when some instance's deadline is still ahead; forgets the passed ones. */
const IS_LISTENING_SCRIPT = `${NOW_MS}
local entries = redis.call('HGETALL', KEYS[1])
local listening = 0
for i = 1, #entries, 2 do
  if tonumber(entries[i + 1]) > now then listening = 1 else redis.call('HDEL', KEYS[1], entries[i]) end
end
return listening`;

/**
 * Presence shared by the instances (REDIS_URL): one hash per user, instance id → the time until
 * which that instance vouches for a listening tab. Each instance renews its users' entries every
 * `refreshMs`; a crashed one stops renewing and its entries pass their deadline.
 */
export class RedisPresence implements Presence {
  /** This instance's listening tabs per user, the truth the entries in Redis are renewed from. */
  private readonly counts = new Map<string, number>();
  private readonly refresher: NodeJS.Timeout;
  // A Redis that restarted has lost the entries (it keeps nothing on disk): they are written again
  // as soon as the connection is back, not at the next renewal, so no incoming call is missed.
  private readonly onReconnected = () => void this.refresh();

  /** `redis` is shared with the rest of the app: its owner closes it. */
  constructor(
    private readonly redis: Redis,
    private readonly instanceId: string,
    private readonly log: { warn(obj: object, msg: string): void },
    private readonly timing: PresenceTiming = defaultPresenceTiming,
  ) {
    this.refresher = setInterval(() => void this.refresh(), timing.refreshMs);
    this.refresher.unref();
    redis.on('ready', this.onReconnected);
  }

  // The command is sent before any await, so that calls reach Redis in the order they were made.
  async setListening(userId: string, count: number) {
    if (count > 0) {
      this.counts.set(userId, count);
      await this.redis.eval(MARK_SCRIPT, 1, KEY_PREFIX + userId, this.instanceId, this.timing.ttlMs);
    } else {
      this.counts.delete(userId);
      await this.redis.hdel(KEY_PREFIX + userId, this.instanceId);
    }
  }

  async isListening(userId: string) {
    return (await this.redis.eval(IS_LISTENING_SCRIPT, 1, KEY_PREFIX + userId)) === 1;
  }

  async listeningUsers() {
    return [...this.counts.keys()];
  }

  /** A clean stop withdraws this instance's listeners at once rather than after the ttl. */
  async close() {
    clearInterval(this.refresher);
    this.redis.off('ready', this.onReconnected);
    const users = [...this.counts.keys()];
    this.counts.clear();
    if (users.length === 0) return;
    const withdraw = this.redis.pipeline();
    for (const userId of users) withdraw.hdel(KEY_PREFIX + userId, this.instanceId);
    await withdraw.exec().catch((error: unknown) => this.log.warn({ err: error }, 'could not withdraw the listening users of this instance'));
  }

  private async refresh() {
    if (this.counts.size === 0) return;
    const keys = [...this.counts.keys()].map((userId) => KEY_PREFIX + userId);
    try {
      await this.redis.eval(MARK_SCRIPT, keys.length, ...keys, this.instanceId, this.timing.ttlMs);
    } catch (error) {
      this.log.warn({ err: error }, 'could not renew the listening users of this instance');
    }
  }
}
