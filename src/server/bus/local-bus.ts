import type { Bus, BusHandler, Unsubscribe } from './bus';

/** The bus of a single instance (no REDIS_URL): delivers at once, in the publisher's own turn. */
export class LocalBus implements Bus {
  private readonly channels = new Map<string, Set<BusHandler>>();

  async publish(channel: string, payload: string | Buffer) {
    const bytes = typeof payload === 'string' ? Buffer.from(payload) : payload;
    // A copy, so that a handler that unsubscribes or subscribes while delivering changes nothing now.
    for (const handler of [...(this.channels.get(channel) ?? [])]) handler(bytes);
  }

  async subscribe(channel: string, handler: BusHandler): Promise<Unsubscribe> {
    let handlers = this.channels.get(channel);
    if (!handlers) {
      handlers = new Set();
      this.channels.set(channel, handlers);
    }
    handlers.add(handler);
    return async () => {
      handlers.delete(handler);
      if (handlers.size === 0 && this.channels.get(channel) === handlers) this.channels.delete(channel);
    };
  }

  async close() {
    this.channels.clear();
  }
}
