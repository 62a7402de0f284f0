import type { Redis } from 'ioredis';
import type { Bus, BusHandler, Unsubscribe } from './bus';

/** Keeps Voxline's channels apart from other users of the same Redis. */
const CHANNEL_PREFIX = 'voxline:bus:';

/** How long a first subscription waits for the subscriber connection to be up. */
const READY_WAIT_MS = 5_000;

/**
 * How long a publish waits for others to go to Redis in the same write. A relayed call publishes
 * 50 frames a second each way, each arriving in its own turn of the event loop; every write wakes
 * Redis, and each of its deliveries wakes a subscribing instance. Writing what a millisecond
 * brings together halved Redis's CPU under bench/load and cut the instances' time in send system
 * calls (docs/benchmarks.md), for at most about a millisecond more per hop.
 */
const PUBLISH_COALESCE_MS = 1;

interface Outgoing {
  channel: string;
  payload: string | Buffer;
  resolve(): void;
  reject(error: unknown): void;
}

interface Channel {
  handlers: Set<BusHandler>;
  /** The SUBSCRIBE sent for this channel; every handler of it waits for the same one. */
  subscribed: Promise<unknown>;
}

/**
 * The bus across instances (REDIS_URL): Redis pub/sub. A connection that subscribes can send
 * nothing else, hence two. ioredis subscribes again to every channel after a reconnection
 * (autoResubscribe); what was published while the connection was down is lost, as pub/sub keeps
 * nothing.
 */
export class RedisBus implements Bus {
  private readonly channels = new Map<string, Channel>();
  private outgoing: Outgoing[] = [];
  private flushTimer: NodeJS.Timeout | null = null;

  /** Takes ownership of both connections; `subscriber` must not have subscribed to anything yet. */
  constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    private readonly log: { warn(obj: object, msg: string): void },
  ) {
    // As bytes: media frames cross the bus unencoded.
    subscriber.on('messageBuffer', (prefixed: Buffer, payload: Buffer) => this.deliver(prefixed.toString().slice(CHANNEL_PREFIX.length), payload));
  }

  publish(channel: string, payload: string | Buffer): Promise<void> {
    return new Promise((resolve, reject) => {
      this.outgoing.push({ channel: CHANNEL_PREFIX + channel, payload, resolve, reject });
      this.flushTimer ??= setTimeout(() => this.flush(), PUBLISH_COALESCE_MS);
    });
  }

  async subscribe(channel: string, handler: BusHandler): Promise<Unsubscribe> {
    let entry = this.channels.get(channel);
    if (!entry) {
      const created: Channel = { handlers: new Set(), subscribed: this.whenReady().then(() => this.subscriber.subscribe(CHANNEL_PREFIX + channel)) };
      // A failed SUBSCRIBE is forgotten, so that the next subscriber tries again.
      created.subscribed.catch(() => {
        if (this.channels.get(channel) === created) this.channels.delete(channel);
      });
      this.channels.set(channel, created);
      entry = created;
    }
    entry.handlers.add(handler);
    try {
      await entry.subscribed;
    } catch (error) {
      entry.handlers.delete(handler);
      throw error;
    }
    const subscribed = entry;
    return async () => {
      subscribed.handlers.delete(handler);
      if (subscribed.handlers.size > 0 || this.channels.get(channel) !== subscribed) return;
      this.channels.delete(channel);
      await this.subscriber.unsubscribe(CHANNEL_PREFIX + channel);
    };
  }

  async close() {
    if (this.flushTimer) {
      clearTimeout(this.flushTimer);
      this.flush();
    }
    this.channels.clear();
    this.subscriber.disconnect();
    await this.publisher.quit().catch(() => this.publisher.disconnect());
  }

  /**
   * A SUBSCRIBE sent while the connection is still being set up can land among ioredis's own
   * set-up commands (redis/ioredis#2037): its ready check then fails in subscriber mode, the
   * connection is replaced, and the subscription is silently lost. So subscribing waits for ready.
   */
  private whenReady(): Promise<void> {
    if (this.subscriber.status === 'ready') return Promise.resolve();
    return new Promise((resolve, reject) => {
      const onReady = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.subscriber.off('ready', onReady);
        reject(new Error('Redis is not reachable: the bus cannot subscribe'));
      }, READY_WAIT_MS);
      this.subscriber.once('ready', onReady);
    });
  }

  /** Writes every waiting publish in one pipeline, in the order they were made. */
  private flush() {
    this.flushTimer = null;
    const batch = this.outgoing;
    this.outgoing = [];
    // Mostly one: the media exchange's frames for the other instance. A pipeline costs more.
    if (batch.length === 1) {
      const [{ channel, payload, resolve, reject }] = batch as [Outgoing];
      this.publisher.publish(channel, payload).then(() => resolve(), reject);
      return;
    }
    const pipeline = this.publisher.pipeline();
    for (const { channel, payload } of batch) pipeline.publish(channel, payload);
    pipeline.exec().then(
      (results) => {
        batch.forEach((message, index) => {
          const error = results?.[index]?.[0];
          if (error) message.reject(error);
          else message.resolve();
        });
      },
      (error: unknown) => {
        for (const message of batch) message.reject(error);
      },
    );
  }

  private deliver(channel: string, payload: Buffer) {
    for (const handler of [...(this.channels.get(channel)?.handlers ?? [])]) {
      // A throwing handler must neither starve the others nor break the connection's reader.
      try {
        handler(payload);
      } catch (error) {
        this.log.warn({ err: error, channel }, 'a bus message could not be handled');
      }
    }
  }
}
