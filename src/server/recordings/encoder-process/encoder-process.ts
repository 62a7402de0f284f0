import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { frameSamples } from '../../../common/calls';
import type { StereoEncoder } from '../recording-file';
import { RECORDING_RATE } from '../stereo-frames';
import type { EncoderReply, EncoderRequest } from './messages';

/**
 * Frames sent to the process at once: a message per 20 ms frame would cost the instance's thread
 * more than the encoding it moves away; 10 (200 ms) is what a crash may lose on top of the page
 * being filled.
 */
const BATCH_FRAMES = 10;
const FRAME = frameSamples(RECORDING_RATE);
const FRAME_MS = 20;
/**
 * Frames the process may be behind, all recordings together, before the recording that writes the
 * next one is given up (told "could not be saved", its call going on): 64 MB of PCM, 5 s of 200
 * calls. The process runs below the calls (encoder-child.ts), so a machine that has no time left
 * for it sheds recordings one by one until it keeps up, rather than queueing without end.
 */
const MAX_BACKLOG_FRAMES = 50_000;

interface OpenRecording {
  sink: (bytes: Uint8Array) => void;
  onError: (error: Error) => void;
  finished: (() => void) | null;
}

/**
 * The instance's recordings encode in a process of their own (encoder-child.ts): 200 recorded calls
 * are 10,000 stereo Opus frames a second, more than the instance's own thread has beside the calls'
 * live audio (docs/benchmarks.md, bench/load --record). Not a worker thread: the Opus binding's
 * native code returns every encoder's packet through one buffer of the process, so a thread
 * encoding recordings overwrote live calls' packets (decision 039). Started with the first
 * recording; a process that dies fails the recordings it held (never their calls), and the next
 * recording starts another.
 */
export class EncoderProcess {
  private child: ChildProcess | null = null;
  private readonly open = new Map<number, OpenRecording>();
  private nextId = 1;
  /** Frames sent to the current process, and frames it said it had taken; both wrap at 2^32. */
  private posted = 0;
  private encoded = 0;

  constructor(private readonly maxBacklogFrames = MAX_BACKLOG_FRAMES) {}

  /** A recording's encoder: frames in, in order; its pages come back to `sink` as the process makes them. */
  encoder(sink: (bytes: Uint8Array) => void, onError: (error: Error) => void): StereoEncoder {
    const id = this.nextId++;
    const recording: OpenRecording = { sink, onError, finished: null };
    this.open.set(id, recording);
    this.post({ type: 'open', id });
    // Sending copies them (the message is serialised at once), so the same two serve every batch.
    const left = new Int16Array(FRAME * BATCH_FRAMES);
    const right = new Int16Array(FRAME * BATCH_FRAMES);
    let batched = 0;
    let frames = 0;
    const flush = () => {
      if (batched === 0) return;
      this.post({ type: 'frames', id, frames: batched, left: left.subarray(0, batched * FRAME), right: right.subarray(0, batched * FRAME) });
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
        // Failed already (its process stopped): there is nothing more to wait for.
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

  /** Frames sent to the process that it has not taken yet, as far as its last answer says. */
  private backlog() {
    return (this.posted - this.encoded) | 0;
  }

  /** Its file ends with what the process has already taken; the process lets go of it. */
  private abandon(id: number) {
    this.post({ type: 'finish', id });
  }

  /** Stops the process (the instance is closing): what it held is over. */
  async close() {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill();
    await exited;
  }

  /** The process's id, once started. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  private post(request: EncoderRequest) {
    if (!this.open.has(request.id)) return;
    this.started().send(request);
    if (request.type === 'frames') this.posted = (this.posted + request.frames) | 0;
  }

  private started(): ChildProcess {
    if (this.child) return this.child;
    this.posted = 0;
    this.encoded = 0;
    // No Node options of the instance's (a profiler's or inspector's would follow it here); structured
    // clone carries the typed arrays whole.
    const child = fork(fileURLToPath(new URL('./encoder-child-entry.mjs', import.meta.url)), [], { execArgv: [], serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    // The instance's exit never waits for it: a recording cut short is finished by the next start.
    child.unref();
    child.channel?.unref();
    child.on('message', (reply: EncoderReply) => this.receive(reply));
    child.on('error', (error) => this.lost(child, error));
    child.on('exit', (code, signal) => this.lost(child, new Error(`the recordings' encoder process stopped (${signal ?? `exit code ${code}`})`)));
    this.child = child;
    return child;
  }

  private receive(reply: EncoderReply) {
    this.encoded = reply.encoded;
    const recording = this.open.get(reply.id);
    if (!recording) return;
    if (reply.type === 'page') return recording.sink(reply.bytes);
    this.open.delete(reply.id);
    if (reply.type === 'failed') recording.onError(new Error(reply.message));
    recording.finished?.();
  }

  /** Every recording the process held fails; their calls go on. */
  private lost(child: ChildProcess, error: Error) {
    if (this.child !== child && this.child !== null) return;
    this.child = null;
    const held = [...this.open.values()];
    this.open.clear();
    for (const recording of held) {
      recording.onError(error);
      recording.finished?.();
    }
  }
}
