import { randomUUID } from 'node:crypto';
import { AppError } from '../http/app-error';
import type { Bus, Unsubscribe } from './bus';

/** How long an instance waits for another to act on its request before giving up. */
const DEFAULT_REPLY_TIMEOUT_MS = 5_000;

type Envelope<T> =
  | { kind: 'request'; id: string; from: string; body: T }
  | { kind: 'notice'; body: T }
  | { kind: 'reply'; id: string; result?: unknown; error?: { status: number; code: string; message: string } };

interface Pending {
  resolve(result: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

const instanceChannel = (instanceId: string) => `instance:${instanceId}`;

/**
 * Requests from one instance to another over the bus, answered like a function call: the
 * receiving instance's handler runs, and what it returns or the AppError it throws comes back to
 * the requester. Used to act on a call on the instance that holds it.
 */
export class InstanceLink<T> {
  private readonly pending = new Map<string, Pending>();
  private unsubscribe: Unsubscribe | null = null;

  constructor(
    private readonly bus: Bus,
    readonly instanceId: string,
    private readonly handle: (body: T) => unknown,
    private readonly log: { warn(obj: object, msg: string): void },
    private readonly replyTimeoutMs = DEFAULT_REPLY_TIMEOUT_MS,
  ) {}

  /** Starts taking requests; resolves once other instances can reach this one. */
  async start() {
    this.unsubscribe = await this.bus.subscribe(instanceChannel(this.instanceId), (payload) => this.receive(JSON.parse(payload.toString()) as Envelope<T>));
  }

  /** Asks instance `to` to act on `body`; answers its handler's result, or throws its error. */
  request(to: string, body: T): Promise<unknown> {
    const id = randomUUID();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(AppError.unavailable('The server holding this call is not answering. Please try again.'));
      }, this.replyTimeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      this.send(to, { kind: 'request', id, from: this.instanceId, body }).catch((error: unknown) => {
        clearTimeout(timer);
        this.pending.delete(id);
        reject(AppError.unavailable('The servers cannot reach each other right now. Please try again.', error));
      });
    });
  }

  /** Tells instance `to` about `body`, expecting no answer. */
  async notify(to: string, body: T) {
    await this.send(to, { kind: 'notice', body });
  }

  async stop() {
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.reject(AppError.unavailable('The server is shutting down'));
      this.pending.delete(id);
    }
    await this.unsubscribe?.();
    this.unsubscribe = null;
  }

  private send(to: string, envelope: Envelope<T>) {
    return this.bus.publish(instanceChannel(to), JSON.stringify(envelope));
  }

  private receive(envelope: Envelope<T>) {
    if (envelope.kind === 'reply') {
      const pending = this.pending.get(envelope.id);
      if (!pending) return;
      this.pending.delete(envelope.id);
      clearTimeout(pending.timer);
      if (envelope.error) pending.reject(new AppError(envelope.error.status, envelope.error.code, envelope.error.message));
      else pending.resolve(envelope.result);
      return;
    }
    const acting = Promise.resolve().then(() => this.handle(envelope.body));
    if (envelope.kind === 'notice') {
      acting.catch((error: unknown) => this.log.warn({ err: error }, 'a message from another server could not be acted on'));
      return;
    }
    const { id, from } = envelope;
    acting
      .then(
        (result): Envelope<T> => ({ kind: 'reply', id, result }),
        (error: unknown): Envelope<T> => {
          if (error instanceof AppError) return { kind: 'reply', id, error: { status: error.statusCode, code: error.code, message: error.message } };
          this.log.warn({ err: error }, 'a request from another server failed');
          return { kind: 'reply', id, error: { status: 500, code: 'internal', message: 'Something went wrong on our side. Please try again.' } };
        },
      )
      .then((reply) => this.send(from, reply))
      .catch((error: unknown) => this.log.warn({ err: error }, 'could not answer another server'));
  }
}
