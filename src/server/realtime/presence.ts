/**
 * Who has the Call Receiver on (docs/calls.md#routing: an incoming call rings a user's listening tabs), across
 * every instance; each instance reports the users it holds listening tabs of.
 */
export interface Presence {
  /** How many of the user's tabs on this instance listen now (0: none). */
  setListening(userId: string, count: number): Promise<void>;
  /** Whether the user listens on any instance. */
  isListening(userId: string): Promise<boolean>;
  /** The users listening on this instance. */
  listeningUsers(): Promise<string[]>;
  close(): Promise<void>;
}

/** Presence when this process is the only instance (no REDIS_URL). */
export class MemoryPresence implements Presence {
  private readonly counts = new Map<string, number>();

  async setListening(userId: string, count: number) {
    if (count > 0) this.counts.set(userId, count);
    else this.counts.delete(userId);
  }

  async isListening(userId: string) {
    return this.counts.has(userId);
  }

  async listeningUsers() {
    return [...this.counts.keys()];
  }

  async close() {
    this.counts.clear();
  }
}
