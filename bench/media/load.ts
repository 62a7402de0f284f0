import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { FRAME_MS } from '../../src/common/calls';
import type { SocketCodec } from '../../src/common/media';
import { webSocketBytes, type MediaWire } from './media-wire';
import { RealTimePacer } from './real-time-pacer';

const FRAMES_PER_SECOND = 1000 / FRAME_MS;

/**
 * Where a browser connects a call's audio: the call's media path on the server's websocket origin,
 * naming the codec unless it is PCM, which needs no name (as before codecs were named).
 */
export function mediaSocketUrl(baseUrl: string, mediaPath: string, codec: SocketCodec): string {
  const url = new URL(mediaPath, baseUrl.replace(/^http/, 'ws'));
  if (codec !== 'pcm') url.searchParams.set('codec', codec);
  return url.toString();
}

export interface MediaTarget {
  url: string;
  headers?: Record<string, string>;
}

/** Opens a media websocket the way a browser tab would (binary frames, no compression). */
export function openMediaSocket({ url, headers }: MediaTarget): Promise<WebSocket> {
  const socket = new WebSocket(url, { headers, perMessageDeflate: false });
  return new Promise((resolve, reject) => {
    socket.once('open', () => {
      // A close follows every error, and the close is what the bench counts.
      socket.on('error', () => {});
      resolve(socket);
    });
    socket.once('error', reject);
    socket.once('unexpected-response', (_request, response) => reject(new Error(`${url}: upgrade refused with ${response.statusCode}`)));
  });
}

export interface LoadPlan {
  /** What each socket sends and how it reads its echoes, in the sockets' order. */
  wires: MediaWire[];
  warmupSeconds: number;
  seconds: number;
  /** The far end's own delay, taken off every round trip. */
  echoDelayMs: number;
  /** How long to wait for the last frames to come back. */
  drainMs: number;
  /** Called when the measured window opens and closes (after the warm-up, at the last frame). */
  onWindowStart(): Promise<void>;
  onWindowEnd(): Promise<void>;
}

export interface LoadResult {
  /** Round trips of the frames sent in the measured window less the echo's delay, sorted, in ms. */
  roundTripsMs: Float64Array;
  sent: number;
  echoed: number;
  /** Sent and never echoed back. */
  lost: number;
  /** Echoed twice, echoed altered, or not a frame this bench sent. */
  malformed: number;
  /** Echoes of an earlier segment's frames, after its drain time. */
  stale: number;
  /** Sockets the far end closed before the bench did. */
  droppedSockets: number;
  /** Bytes on the sockets (webSocketBytes) of the frames sent in the measured window, each way, summed over the sockets. */
  bytesToServer: number;
  bytesFromServer: number;
  /** The audio the measured window sent on each socket, in seconds. */
  measuredSeconds: number;
  /** This process's CPU time over the measured window, and the window's length. */
  loadCpuMs: number;
  windowMs: number;
}

/** One call's media: sends frames at real-time pace and times each one's return. */
class FrameStream {
  readonly sentAt: Float64Array;
  private readonly echoedFlags: Uint8Array;
  echoed = 0;
  malformed = 0;
  stale = 0;
  dropped = false;
  bytesToServer = 0;
  bytesFromServer = 0;
  private readonly pacer: RealTimePacer;
  private readonly onMessage = (data: Buffer, isBinary: boolean) => this.receive(data, isBinary);
  private readonly onClose = () => {
    this.dropped = true;
    this.stop();
  };

  constructor(
    private readonly socket: WebSocket,
    private readonly wire: MediaWire,
    private readonly total: number,
    private readonly measuredFrom: number,
    private readonly roundTrips: { push(ms: number): void },
    private readonly echoDelayMs: number,
  ) {
    this.sentAt = new Float64Array(total).fill(-1);
    this.pacer = new RealTimePacer(total, (sequence) => this.send(sequence), () => this.dropped);
    this.echoedFlags = new Uint8Array(total);
    socket.on('message', this.onMessage);
    socket.on('close', this.onClose);
  }

  get next() {
    return this.pacer.next;
  }

  start(firstDueAt: number, done: () => void) {
    this.pacer.start(firstDueAt, done);
  }

  get complete() {
    return this.echoed >= this.next;
  }

  stop() {
    this.pacer.stop();
  }

  /** Stops listening, leaving the socket open for the next segment. */
  detach() {
    this.stop();
    this.socket.off('message', this.onMessage);
    this.socket.off('close', this.onClose);
  }

  private send(sequence: number) {
    if (this.socket.readyState !== WebSocket.OPEN) {
      this.dropped = true;
      return;
    }
    const message = this.wire.message(sequence);
    if (sequence >= this.measuredFrom) this.bytesToServer += webSocketBytes(message.length, true);
    this.sentAt[sequence] = performance.now();
    this.socket.send(message, { binary: true });
  }

  private receive(data: Buffer, isBinary: boolean) {
    const now = performance.now();
    const sequence = this.wire.arrival(data, isBinary, this.echoed);
    if (sequence === 'stale') {
      this.stale += 1;
      return;
    }
    if (sequence === 'altered' || sequence >= this.total || this.sentAt[sequence]! < 0 || this.echoedFlags[sequence]) {
      this.malformed += 1;
      return;
    }
    this.echoedFlags[sequence] = 1;
    this.echoed += 1;
    if (sequence < this.measuredFrom) return;
    this.bytesFromServer += webSocketBytes(data.length, false);
    this.roundTrips.push(now - this.sentAt[sequence]! - this.echoDelayMs);
  }
}

/**
 * One segment of load: drives every socket at once with 20 ms frames at real-time pace, the calls'
 * phases spread evenly over one frame period as independent callers' would be, for the warm-up and
 * then the measured window. The sockets stay open.
 */
export async function runLoad(sockets: WebSocket[], plan: LoadPlan): Promise<LoadResult> {
  const warmupFrames = Math.round(plan.warmupSeconds * FRAMES_PER_SECOND);
  const measuredFrames = Math.round(plan.seconds * FRAMES_PER_SECOND);
  const total = warmupFrames + measuredFrames;
  const capacity = sockets.length * measuredFrames;
  const roundTripsMs = new Float64Array(capacity);
  let count = 0;
  const roundTrips = {
    push(ms: number) {
      if (count < capacity) roundTripsMs[count++] = ms;
    },
  };
  const streams = sockets.map((socket, index) => new FrameStream(socket, plan.wires[index]!, total, warmupFrames, roundTrips, plan.echoDelayMs));

  const startAt = performance.now() + 200;
  let finished = 0;
  const allSent = new Promise<void>((resolve) => {
    streams.forEach((stream, index) =>
      stream.start(startAt + (index * FRAME_MS) / streams.length, () => {
        finished += 1;
        if (finished === streams.length) resolve();
      }),
    );
  });

  const windowStartAt = startAt + warmupFrames * FRAME_MS;
  const windowEndAt = startAt + total * FRAME_MS;
  await sleep(windowStartAt - performance.now());
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  await plan.onWindowStart();
  await sleep(windowEndAt - performance.now());
  await plan.onWindowEnd();
  const cpu = process.cpuUsage(cpuBefore);
  const wall = performance.now() - wallBefore;

  await allSent;
  const drainUntil = performance.now() + plan.echoDelayMs + plan.drainMs;
  while (performance.now() < drainUntil && !streams.every((stream) => stream.complete || stream.dropped)) await sleep(20);
  for (const stream of streams) stream.detach();

  const sent = streams.reduce((n, stream) => n + stream.next, 0);
  const echoed = streams.reduce((n, stream) => n + stream.echoed, 0);
  return {
    roundTripsMs: roundTripsMs.subarray(0, count).sort(),
    sent,
    echoed,
    lost: sent - echoed,
    malformed: streams.reduce((n, stream) => n + stream.malformed, 0),
    stale: streams.reduce((n, stream) => n + stream.stale, 0),
    droppedSockets: streams.filter((stream) => stream.dropped).length,
    bytesToServer: streams.reduce((n, stream) => n + stream.bytesToServer, 0),
    bytesFromServer: streams.reduce((n, stream) => n + stream.bytesFromServer, 0),
    measuredSeconds: (measuredFrames * FRAME_MS) / 1000,
    loadCpuMs: (cpu.user + cpu.system) / 1000,
    windowMs: wall,
  };
}

/** The value below which `fraction` of the sorted values fall (nearest rank). */
export function percentile(sorted: Float64Array, fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))]!;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}
