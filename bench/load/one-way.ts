import { constants, monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';
import WebSocket from 'ws';
import { FRAME_MS } from '../../src/common/calls';
import type { SocketCodec } from '../../src/common/media';
import { sleep } from '../media/load';
import { webSocketBytes, type MediaWire } from '../media/media-wire';
import { OpusWire } from '../media/opus-wire';
import { StampedPcmWire } from '../media/stamped-pcm-wire';

const FRAMES_PER_SECOND = 1000 / FRAME_MS;
const LOOP_DELAY_RESOLUTION_MS = 10;
const NS_PER_MS = 1e6;

/** The two ends of one call's audio: the caller's media socket and the callee's. */
export interface CallMedia {
  caller: WebSocket;
  callee: WebSocket;
}

export interface OneWayPlan {
  /** Tells this run's frames from a previous one's. */
  run: number;
  /** What the media sockets carry. */
  codec: SocketCodec;
  warmupSeconds: number;
  seconds: number;
  /** How long to wait for the last frames to arrive. */
  drainMs: number;
  /**
   * Frames at the start of each caller→callee stream that the server may alter: with every call
   * recorded by its caller, the callee hears the recording announcement's beeps over them
   * (docs/calls.md#recording). 0 without recording.
   */
  overlaidFrames: number;
  /** Called when the measured window opens and closes (after the warm-up, at the last frame). */
  onWindowStart(): Promise<void>;
  onWindowEnd(): Promise<void>;
}

export interface OneWayResult {
  /** One-way latencies of the frames sent in the measured window, sorted, in ms. */
  callerToCalleeMs: Float64Array;
  calleeToCallerMs: Float64Array;
  /** Both directions together, sorted. */
  bothMs: Float64Array;
  /** Frames sent over the whole run, warm-up included, both directions. */
  sent: number;
  /** Received in order, each once. */
  received: number;
  /** Sent and not received in order: never arrived, or arrived after a later frame. */
  dropped: number;
  /** Of the dropped, those that arrived after a later one (or twice). */
  outOfOrder: number;
  /** Frames altered, of another call, or of another run. */
  foreign: number;
  /** Altered within `overlaidFrames` (the recording announcement): counted apart, neither dropped nor foreign. */
  overlaid: number;
  /** Opus: the streams that decoded what they received, and those of them that heard silence. */
  decodedStreams: number;
  silentStreams: number;
  /** Bytes on the sockets (webSocketBytes) of the frames sent in the measured window, each way, summed over the streams. */
  bytesToServer: number;
  bytesFromServer: number;
  /** The audio the measured window sent on each stream, in seconds. */
  measuredSeconds: number;
  /** Calls whose media socket the far end closed before the bench did. */
  droppedCalls: number;
  /** This process's CPU time over the measured window, and the window's length. */
  loadCpuMs: number;
  windowMs: number;
  /** This process's event-loop delay over the measured window: a late load generator delays every frame it times. */
  loadLoopDelayP99Ms: number;
  loadLoopDelayMaxMs: number;
  /** This process's full (mark-compact) collections over the window, and its longest collection pause. */
  loadGcMajorCount: number;
  loadGcLongestMs: number;
}

/** Collects latencies into a preallocated array. */
class Latencies {
  private readonly values: Float64Array;
  private count = 0;

  constructor(capacity: number) {
    this.values = new Float64Array(capacity);
  }

  push(ms: number) {
    if (this.count < this.values.length) this.values[this.count++] = ms;
  }

  sorted(): Float64Array {
    return this.values.subarray(0, this.count).sort();
  }
}

/** One direction of one call: frames sent on `from` when the schedule says, each timed on arrival at `to`. */
class OneWayStream {
  private readonly sentAt: Float64Array;
  /** The next frame to send: the count sent so far. */
  next = 0;
  received = 0;
  outOfOrder = 0;
  foreign = 0;
  overlaid = 0;
  dropped = false;
  bytesToServer = 0;
  bytesFromServer = 0;
  private highest = -1;
  private readonly onMessage = (data: Buffer, isBinary: boolean) => this.receive(data, isBinary);
  private readonly onClose = () => {
    this.dropped = true;
  };

  constructor(
    private readonly from: WebSocket,
    private readonly to: WebSocket,
    readonly wire: MediaWire,
    private readonly total: number,
    private readonly measuredFrom: number,
    private readonly latencies: Latencies,
    private readonly overlaidFrames: number,
  ) {
    this.sentAt = new Float64Array(total).fill(-1);
    to.on('message', this.onMessage);
    from.on('close', this.onClose);
    to.on('close', this.onClose);
  }

  get complete() {
    return this.received + this.outOfOrder + this.overlaid >= this.next;
  }

  /** Stops listening; the sockets stay open. */
  detach() {
    this.to.off('message', this.onMessage);
    this.from.off('close', this.onClose);
    this.to.off('close', this.onClose);
  }

  /** Sends the next frame, unless the stream has lost a socket. */
  sendNext() {
    if (this.dropped) return;
    if (this.from.readyState !== WebSocket.OPEN) {
      this.dropped = true;
      return;
    }
    const sequence = this.next++;
    const message = this.wire.message(sequence);
    if (sequence >= this.measuredFrom) this.bytesToServer += webSocketBytes(message.length, true);
    this.sentAt[sequence] = performance.now();
    this.from.send(message, { binary: true });
  }

  private receive(data: Buffer, isBinary: boolean) {
    const now = performance.now();
    const sequence = this.wire.arrival(data, isBinary, this.received + this.outOfOrder);
    if (typeof sequence !== 'number' || sequence >= this.total || this.sentAt[sequence]! < 0) {
      if (typeof sequence !== 'number' && this.received + this.outOfOrder + this.overlaid < this.overlaidFrames) this.overlaid += 1;
      else this.foreign += 1;
      return;
    }
    if (sequence <= this.highest) {
      this.outOfOrder += 1;
      return;
    }
    this.highest = sequence;
    this.received += 1;
    if (sequence < this.measuredFrom) return;
    this.bytesFromServer += webSocketBytes(data.length, false);
    this.latencies.push(now - this.sentAt[sequence]!);
  }
}

/**
 * Sends every stream's frames 0…total-1 at real-time pace, the streams' phases spread evenly over
 * one frame period as independent callers' would be: the j-th send of all is due j/n of a frame
 * period after `startAt`. One timer for all the streams, rather than one each, keeps the load
 * generator's own work (which shares the machine with the servers it measures) low. A late timer
 * sends what is due at once, so the pace stays real-time on average.
 */
function paceStreams(streams: OneWayStream[], total: number, startAt: number): Promise<void> {
  const sends = streams.length * total;
  const dueAt = (send: number) => startAt + (send * FRAME_MS) / streams.length;
  let next = 0;
  return new Promise((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (next < sends && dueAt(next) <= now + 0.5) {
        streams[next % streams.length]!.sendNext();
        next += 1;
      }
      if (next >= sends || streams.every((stream) => stream.dropped)) resolve();
      else setTimeout(tick, dueAt(next) - now);
    };
    setTimeout(tick, Math.max(0, startAt - performance.now()));
  });
}

/**
 * Drives every call's audio both ways at once, a frame every 20 ms at real-time pace (stamped PCM
 * or Opus, media-wire.ts), for the warm-up and then the measured window, and times each frame from
 * one end to the other.
 */
export async function runOneWay(calls: CallMedia[], plan: OneWayPlan): Promise<OneWayResult> {
  const warmupFrames = Math.round(plan.warmupSeconds * FRAMES_PER_SECOND);
  const measuredFrames = Math.round(plan.seconds * FRAMES_PER_SECOND);
  const total = warmupFrames + measuredFrames;
  const up = new Latencies(calls.length * measuredFrames);
  const down = new Latencies(calls.length * measuredFrames);
  const wire = (stream: number) => (plan.codec === 'opus' ? new OpusWire(stream) : new StampedPcmWire(stream, plan.run));
  const streams = calls.flatMap(({ caller, callee }, index) => [
    new OneWayStream(caller, callee, wire(index * 2), total, warmupFrames, up, plan.overlaidFrames),
    new OneWayStream(callee, caller, wire(index * 2 + 1), total, warmupFrames, down, 0),
  ]);

  const startAt = performance.now() + 200;
  const allSent = streams.length === 0 ? Promise.resolve() : paceStreams(streams, total, startAt);

  const windowStartAt = startAt + warmupFrames * FRAME_MS;
  const windowEndAt = startAt + total * FRAME_MS;
  await sleep(windowStartAt - performance.now());
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  const loopDelay = monitorEventLoopDelay({ resolution: LOOP_DELAY_RESOLUTION_MS });
  loopDelay.enable();
  let gcMajorCount = 0;
  let gcLongestMs = 0;
  const gcObserver = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gcLongestMs = Math.max(gcLongestMs, entry.duration);
      if ((entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) gcMajorCount += 1;
    }
  });
  gcObserver.observe({ entryTypes: ['gc'] });
  await plan.onWindowStart();
  await sleep(windowEndAt - performance.now());
  await plan.onWindowEnd();
  loopDelay.disable();
  gcObserver.disconnect();
  const cpu = process.cpuUsage(cpuBefore);
  const wall = performance.now() - wallBefore;
  // The histogram holds the intervals between its timer's runs: the delay is what exceeds the resolution.
  const delayAt = (nanoseconds: number) => Math.max(0, nanoseconds / NS_PER_MS - LOOP_DELAY_RESOLUTION_MS);

  await allSent;
  const drainUntil = performance.now() + plan.drainMs;
  while (performance.now() < drainUntil && !streams.every((stream) => stream.complete || stream.dropped)) await sleep(20);
  for (const stream of streams) stream.detach();

  const sum = (pick: (stream: OneWayStream) => number) => streams.reduce((n, stream) => n + pick(stream), 0);
  const callerToCalleeMs = up.sorted();
  const calleeToCallerMs = down.sorted();
  const bothMs = new Float64Array(callerToCalleeMs.length + calleeToCallerMs.length);
  bothMs.set(callerToCalleeMs);
  bothMs.set(calleeToCallerMs, callerToCalleeMs.length);
  bothMs.sort();
  const sent = sum((stream) => stream.next);
  const received = sum((stream) => stream.received);
  return {
    callerToCalleeMs,
    calleeToCallerMs,
    bothMs,
    sent,
    received,
    dropped: sent - received - sum((stream) => stream.overlaid),
    outOfOrder: sum((stream) => stream.outOfOrder),
    foreign: sum((stream) => stream.foreign),
    overlaid: sum((stream) => stream.overlaid),
    decodedStreams: streams.filter(({ wire }) => wire instanceof OpusWire && wire.decodes).length,
    silentStreams: streams.filter(({ wire }) => wire instanceof OpusWire && wire.silent).length,
    bytesToServer: sum((stream) => stream.bytesToServer),
    bytesFromServer: sum((stream) => stream.bytesFromServer),
    measuredSeconds: (measuredFrames * FRAME_MS) / 1000,
    droppedCalls: new Set(streams.flatMap((stream, index) => (stream.dropped ? [Math.floor(index / 2)] : []))).size,
    loadCpuMs: (cpu.user + cpu.system) / 1000,
    windowMs: wall,
    loadLoopDelayP99Ms: delayAt(loopDelay.percentile(99)),
    loadLoopDelayMaxMs: delayAt(loopDelay.max),
    loadGcMajorCount: gcMajorCount,
    loadGcLongestMs: gcLongestMs,
  };
}
