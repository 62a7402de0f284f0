import { Worker } from 'node:worker_threads';
import { frameSamples } from '../../../common/calls';
import type { StereoEncoder } from '../recording-file';
import { RECORDING_RATE } from '../stereo-frames';
import type { EncoderReply, EncoderRequest } from './messages';

/**
 * Frames sent to the thread at once: a message per 20 ms frame would cost the instance's thread
 * more than the encoding it moves away; 10 (200 ms) is what a crash may lose on top of the page
 * being filled.
 */
const BATCH_FRAMES = 10;
const FRAME = frameSamples(RECORDING_RATE);
const FRAME_MS = 20;

interface OpenRecording {
  sink: (bytes: Uint8Array) => void;
  onError: (error: Error) => void;
  finished: (() => void) | null;
}

/**
 * The instance's recordings encode on a thread of their own (encoder-worker.ts): 200 recorded calls
 * are 10,000 stereo Opus frames a second, more than the instance's own thread has beside the calls'
 * live audio (docs/benchmarks.md, bench/load --record). Started with the first recording; a thread
 * that dies fails the recordings it held (never their calls), and the next recording starts another.
 */
export class EncoderThread {
  private worker: Worker | null = null;
  private readonly open = new Map<number, OpenRecording>();
  private nextId = 1;

  /** A recording's encoder: frames in, in order; its pages come back to `sink` as the thread makes them. */
  encoder(sink: (bytes: Uint8Array) => void, onError: (error: Error) => void): StereoEncoder {
    const id = this.nextId++;
    const recording: OpenRecording = { sink, onError, finished: null };
    this.open.set(id, recording);
    this.post({ type: 'open', id });
    let left = new Int16Array(FRAME * BATCH_FRAMES);
    let right = new Int16Array(FRAME * BATCH_FRAMES);
    let batched = 0;
    let frames = 0;
    const flush = () => {
      if (batched === 0) return;
      this.post({ type: 'frames', id, frames: batched, left, right }, [left.buffer, right.buffer]);
      left = new Int16Array(FRAME * BATCH_FRAMES);
      right = new Int16Array(FRAME * BATCH_FRAMES);
      batched = 0;
    };
    return {
      writeFrame: (leftFrame, rightFrame) => {
        left.set(leftFrame, batched * FRAME);
        right.set(rightFrame, batched * FRAME);
        batched += 1;
        frames += 1;
        if (batched === BATCH_FRAMES) flush();
      },
      finish: () => {
        flush();
        // Failed already (its thread stopped): there is nothing more to wait for.
        if (!this.open.has(id)) return Promise.resolve();
        const done = new Promise<void>((resolve) => (recording.finished = resolve));
        this.post({ type: 'finish', id });
        return done;
      },
      get durationMs() {
        return frames * FRAME_MS;
      },
    };
  }

  /** Stops the thread (the instance is closing): what it held is over. */
  async close() {
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }

  private post(request: EncoderRequest, transfer: ArrayBuffer[] = []) {
    if (!this.open.has(request.id)) return;
    this.started().postMessage(request, transfer);
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./encoder-worker-entry.mjs', import.meta.url));
    // The instance's exit never waits for it: a recording cut short is finished by the next start.
    worker.unref();
    worker.on('message', (reply: EncoderReply) => this.receive(reply));
    worker.on('error', (error) => this.lost(worker, error));
    worker.on('exit', (code) => this.lost(worker, new Error(`the recordings' encoder thread stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }

  private receive(reply: EncoderReply) {
    const recording = this.open.get(reply.id);
    if (!recording) return;
    if (reply.type === 'page') return recording.sink(reply.bytes);
    this.open.delete(reply.id);
    if (reply.type === 'failed') recording.onError(new Error(reply.message));
    recording.finished?.();
  }

  /** Every recording the thread held fails; their calls go on. */
  private lost(worker: Worker, error: Error) {
    if (this.worker !== worker && this.worker !== null) return;
    this.worker = null;
    const held = [...this.open.values()];
    this.open.clear();
    for (const recording of held) {
      recording.onError(error);
      recording.finished?.();
    }
  }
}
