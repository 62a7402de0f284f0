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
/**
 * Frames the thread may be behind, all recordings together, before the recording that writes the
 * next one is given up (told "could not be saved", its call going on): 64 MB of PCM, 5 s of 200
 * calls. The thread runs below the calls (background-priority.ts), so a machine that has no time
 * left for it sheds recordings one by one until it keeps up, rather than queueing without end.
 */
const MAX_BACKLOG_FRAMES = 50_000;

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
  /** Frames sent to the current thread, and (shared with it) frames it has encoded; both wrap at 2^32. */
  private posted = 0;
  private encoded = new Int32Array(new SharedArrayBuffer(4));

  constructor(private readonly maxBacklogFrames = MAX_BACKLOG_FRAMES) {}

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
        if (this.backlog() + batched >= this.maxBacklogFrames) {
          this.abandon(id);
          throw new Error(`the recordings' encoder is ${this.backlog()} frames behind: this recording is given up so that the others keep up`);
        }
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

  /** Frames sent to the thread that it has not encoded yet. */
  private backlog() {
    return (this.posted - Atomics.load(this.encoded, 0)) | 0;
  }

  /** Its file ends with what the thread has already taken; the thread lets go of it. */
  private abandon(id: number) {
    this.post({ type: 'finish', id });
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
    if (request.type === 'frames') this.posted = (this.posted + request.frames) | 0;
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    this.posted = 0;
    this.encoded = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(new URL('./encoder-worker-entry.mjs', import.meta.url), { workerData: { encoded: this.encoded } });
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
