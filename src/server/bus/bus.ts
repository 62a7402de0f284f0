/** Stops one handler's delivery; resolves once the channel is no longer listened to for it. */
export type Unsubscribe = () => Promise<void>;

/** Receives a payload as bytes, whether it was published as text or bytes. */
export type BusHandler = (payload: Buffer) => void;

/**
 * Messages between the server instances (docs/architecture.md#shape-of-the-system): whatever one instance publishes on a
 * channel reaches every handler subscribed to that channel on any instance, itself included, once.
 */
export interface Bus {
  /** Text for messages, bytes for media frames (which need no encoding on their way). */
  publish(channel: string, payload: string | Buffer): Promise<void>;
  /** Resolves once messages published from then on are delivered to `handler`. */
  subscribe(channel: string, handler: BusHandler): Promise<Unsubscribe>;
  close(): Promise<void>;
}
