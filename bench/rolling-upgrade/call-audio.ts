import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { FRAME_MS } from '../../src/common/calls';
import { sleep } from '../media/load';
import { RealTimePacer } from '../media/real-time-pacer';
import { StampedPcmWire } from '../media/stamped-pcm-wire';
import { ArrivalGaps } from './arrival-gaps';
import type { DirectionFrames } from './call-tally';

/** The stamps' run: one per bench run, so any number does. */
const RUN = 1;
/** The callee's frames start half a frame after the caller's, as two people's microphones would. */
const CALLEE_PHASE_MS = FRAME_MS / 2;

/** One direction of a call: stamped PCM frames sent at real-time pace on `from`, each checked on arrival at `to`. */
class AudioDirection {
  private sent = 0;
  private received = 0;
  private outOfOrder = 0;
  private foreign = 0;
  private highest = -1;
  private lastSentAt = 0;
  private gaps: ArrivalGaps | null = null;
  private readonly wire: StampedPcmWire;
  private readonly pacer: RealTimePacer;
  private readonly onMessage = (data: Buffer, isBinary: boolean) => this.receive(data, isBinary);

  constructor(
    private readonly from: WebSocket,
    private readonly to: WebSocket,
    stream: number,
    frames: number,
  ) {
    this.wire = new StampedPcmWire(stream, RUN);
    this.pacer = new RealTimePacer(
      frames,
      (sequence) => this.send(sequence),
      () => from.readyState !== WebSocket.OPEN || to.readyState !== WebSocket.OPEN,
    );
    to.on('message', this.onMessage);
  }

  /** Resolves when every frame is sent, or a socket has closed. */
  run(firstDueAt: number): Promise<void> {
    return new Promise((resolve) => this.pacer.start(firstDueAt, resolve));
  }

  stop() {
    this.pacer.stop();
  }

  get complete(): boolean {
    return this.received + this.outOfOrder >= this.sent;
  }

  finish(): DirectionFrames {
    this.to.off('message', this.onMessage);
    this.gaps?.sendingEnded(this.lastSentAt);
    return { sent: this.sent, received: this.received, foreign: this.foreign, longestGapMs: this.gaps?.longestMs ?? 0, longestGapEndedAt: this.gaps?.longestEndedAt ?? null };
  }

  private send(sequence: number) {
    if (this.from.readyState !== WebSocket.OPEN) return;
    const now = performance.now();
    this.gaps ??= new ArrivalGaps(now);
    this.from.send(this.wire.message(sequence), { binary: true });
    this.sent = sequence + 1;
    this.lastSentAt = now;
  }

  private receive(data: Buffer, isBinary: boolean) {
    const sequence = this.wire.arrival(data, isBinary);
    if (typeof sequence !== 'number' || sequence >= this.sent) {
      this.foreign += 1;
      return;
    }
    if (sequence <= this.highest) {
      this.outOfOrder += 1;
      return;
    }
    this.highest = sequence;
    this.received += 1;
    this.gaps?.arrived(performance.now());
  }
}

/**
 * A call's audio both ways between the caller's media socket and the callee's: a 20 ms frame each
 * way at real-time pace for the call's length, every frame stamped (bench/media's StampedPcmWire)
 * and checked on arrival: order, loss, and the longest stretch without one.
 */
export class CallAudio {
  private readonly callerToCallee: AudioDirection;
  private readonly calleeToCaller: AudioDirection;
  private stopNow: () => void = () => {};

  /** `call`: this call's number in the run, which makes its streams' stamps its own. */
  constructor(caller: WebSocket, callee: WebSocket, call: number, durationMs: number) {
    const frames = Math.max(1, Math.round(durationMs / FRAME_MS));
    this.callerToCallee = new AudioDirection(caller, callee, call * 2, frames);
    this.calleeToCaller = new AudioDirection(callee, caller, call * 2 + 1, frames);
  }

  /** Sends both ways for the call's length; resolves early on stop() or when a socket closes. */
  async run(): Promise<void> {
    const startAt = performance.now() + FRAME_MS;
    const stopped = new Promise<void>((resolve) => (this.stopNow = resolve));
    await Promise.race([Promise.all([this.callerToCallee.run(startAt), this.calleeToCaller.run(startAt + CALLEE_PHASE_MS)]), stopped]);
    this.callerToCallee.stop();
    this.calleeToCaller.stop();
  }

  stop() {
    this.stopNow();
  }

  /** Waits up to `ms` for the frames still on their way, then counts. */
  async finish(ms: number): Promise<{ callerToCallee: DirectionFrames; calleeToCaller: DirectionFrames }> {
    const until = performance.now() + ms;
    while (performance.now() < until && !(this.callerToCallee.complete && this.calleeToCaller.complete)) await sleep(FRAME_MS);
    return { callerToCallee: this.callerToCallee.finish(), calleeToCaller: this.calleeToCaller.finish() };
  }
}
