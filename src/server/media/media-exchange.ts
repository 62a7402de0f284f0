import type { Bus, Unsubscribe } from '../bus/bus';

const channelOf = (instanceId: string) => `media:${instanceId}`;

/** Each frame on the bus is headed by its stream's id (a UUID's 16 bytes) and its length. */
const ID_BYTES = 16;
const HEADER_BYTES = ID_BYTES + 2;
const MAX_FRAME_BYTES = 0xffff;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * How long frames for one instance wait for others to go in the same bus message. A relayed call
 * sends 50 frames a second each way; one message per frame cost each instance a Redis command, a
 * promise and a parse per frame, and Redis a delivery per frame (docs/decisions/010).
 */
const GATHER_MS = 1;

/** A frame that was handed to the bus, or to a listener, as a view valid until the call returns. */
export type FrameListener = (frame: Buffer) => void;

interface Batch {
  records: Buffer[];
  bytes: number;
}

/**
 * The media frames of calls whose legs are on different instances (docs/architecture.md#shape-of-the-system, docs/calls.md#media).
 * Each instance listens on one bus channel of its own; the frames of every stream bound for one
 * instance within a millisecond go to it as one message, in the order they were sent, and are
 * handed out there to the listener of each stream. Streams are named by UUIDs (relay ids).
 */
export class MediaExchange {
  private readonly listeners = new Map<string, FrameListener>();
  private outgoing = new Map<string, Batch>();
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: Unsubscribe | null = null;
  /** Frames the bus would not take (Redis away): pub/sub keeps nothing, so they are gone. */
  lostFrames = 0;
  /** Frames of streams nobody here listens to (yet, or any more), or of a malformed message. */
  strayFrames = 0;

  constructor(
    private readonly bus: Bus,
    private readonly instanceId: string,
  ) {}

  /** Resolves once frames sent to this instance are delivered. */
  async start() {
    this.unsubscribe = await this.bus.subscribe(channelOf(this.instanceId), (payload) => this.deliver(payload));
  }

  /** Hands the frames of `streamId` arriving here to `listener` until the returned function is called. */
  listen(streamId: string, listener: FrameListener): () => void {
    const key = keyOf(streamId);
    this.listeners.set(key, listener);
    return () => {
      if (this.listeners.get(key) === listener) this.listeners.delete(key);
    };
  }

  /** The function that sends a frame of `streamId` to instance `to`; it copies the frame at once. */
  sender(to: string, streamId: string): (frame: Uint8Array) => void {
    const id = Buffer.from(keyOf(streamId), 'hex');
    return (frame) => this.enqueue(to, id, frame);
  }

  /** Sends what is waiting and stops listening. */
  async stop() {
    if (this.timer) clearTimeout(this.timer);
    this.flush();
    this.listeners.clear();
    await this.unsubscribe?.();
    this.unsubscribe = null;
  }

  private enqueue(to: string, id: Buffer, frame: Uint8Array) {
    if (frame.byteLength > MAX_FRAME_BYTES) throw new RangeError(`a media frame of ${frame.byteLength} bytes is too long for the bus`);
    const record = Buffer.allocUnsafe(HEADER_BYTES + frame.byteLength);
    id.copy(record, 0);
    record.writeUInt16LE(frame.byteLength, ID_BYTES);
    record.set(frame, HEADER_BYTES);
    let batch = this.outgoing.get(to);
    if (!batch) {
      batch = { records: [], bytes: 0 };
      this.outgoing.set(to, batch);
    }
    batch.records.push(record);
    batch.bytes += record.length;
    this.timer ??= setTimeout(() => this.flush(), GATHER_MS);
  }

  private flush() {
    this.timer = null;
    const outgoing = this.outgoing;
    this.outgoing = new Map();
    for (const [to, { records, bytes }] of outgoing) {
      this.bus.publish(channelOf(to), Buffer.concat(records, bytes)).catch(() => {
        this.lostFrames += records.length;
      });
    }
  }

  private deliver(payload: Buffer) {
    let offset = 0;
    while (offset + HEADER_BYTES <= payload.length) {
      const length = payload.readUInt16LE(offset + ID_BYTES);
      const end = offset + HEADER_BYTES + length;
      if (end > payload.length) break;
      const listener = this.listeners.get(payload.toString('hex', offset, offset + ID_BYTES));
      if (listener) listener(payload.subarray(offset + HEADER_BYTES, end));
      else this.strayFrames += 1;
      offset = end;
    }
    if (offset !== payload.length) this.strayFrames += 1;
  }
}

/** A stream id as the 32 hex digits of its bytes on the bus. */
function keyOf(streamId: string) {
  if (!UUID.test(streamId)) throw new TypeError(`a media stream id must be a UUID, not "${streamId}"`);
  return streamId.replaceAll('-', '').toLowerCase();
}
