import type { BridgeSide, MediaBridge } from '../media/media-bridge';
import type { StoredAudioState } from '../storage/object-store';
import { StereoFrames } from './stereo-frames';

/** A file the audio spool (storage/audio-spool.ts) writes as the call goes, then hands to the object store. */
export interface SpooledFile {
  write(bytes: Uint8Array): unknown;
  finish(): Promise<StoredAudioState>;
  readonly bytes: number;
}

/** The streaming Ogg Opus encoder (media/ogg/ogg-opus-writer.ts), two channels at RECORDING_RATE. */
export interface StereoEncoder {
  writeFrame(left: Int16Array, right: Int16Array): void;
  /** Ends the file: settled once its last page has gone to the sink (an encoder on a thread answers later). */
  finish(): void | Promise<void>;
  readonly durationMs: number;
}

/** Makes an encoder writing into `sink`; one that fails later than a call to it says so through `onError`. */
export type StereoEncoderFactory = (sink: (bytes: Uint8Array) => void, onError: (error: Error) => void) => StereoEncoder;

/** What a finished recording file came to. */
export interface RecordedFile {
  state: StoredAudioState;
  durationMs: number;
  bytes: number;
}

export interface RecordingFileOptions {
  bridge: MediaBridge;
  /** The recording user's side of the bridge: channel 1 is what it gives, channel 2 what it hears. */
  side: BridgeSide;
  file: SpooledFile;
  encoder: StereoEncoderFactory;
  /** Called once, on the first failure to encode or write: the file is then abandoned, the call goes on. */
  onFailure: (error: unknown) => void;
}

/**
 * One recording's file, written as the call goes (docs/calls.md#recording): what each side gives
 * the other through the bridge, paired into stereo frames, Opus-encoded and spooled. Any failure
 * stops the recording, never the call: the bridge keeps only listeners that cannot throw.
 */
export class RecordingFile {
  private readonly stereo: StereoFrames;
  private readonly encoder: StereoEncoder;
  private stopListening: (() => void)[] = [];
  private failed = false;
  private stopped = false;

  constructor(private readonly options: RecordingFileOptions) {
    const { bridge, side, file } = options;
    const other: BridgeSide = side === 'caller' ? 'callee' : 'caller';
    const legRate = (which: BridgeSide) => (which === 'caller' ? bridge.caller : bridge.callee).sampleRate;
    this.encoder = options.encoder(
      (bytes) => {
        if (this.failed) return;
        try {
          this.spool(file.write(bytes));
        } catch (error) {
          this.fail(error);
        }
      },
      (error) => this.fail(error),
    );
    this.stereo = new StereoFrames(legRate(side), legRate(other), (left, right) => this.encoder.writeFrame(left, right));
    // The encoder writes its headers at once: a spool failing already leaves nothing to listen for.
    if (this.failed) return;
    // A try/catch in place: a closure per frame would be garbage per frame.
    this.stopListening = [
      bridge.listen(side, (frame) => {
        if (this.failed) return;
        try {
          this.stereo.addLeft(frame);
        } catch (error) {
          this.fail(error);
        }
      }),
      bridge.listen(other, (frame) => {
        if (this.failed) return;
        try {
          this.stereo.addRight(frame);
        } catch (error) {
          this.fail(error);
        }
      }),
    ];
  }

  /** Stops listening, ends the encoding and the file; answers what was kept. */
  async stop(): Promise<RecordedFile> {
    this.detach();
    if (!this.failed) {
      try {
        await this.encoder.finish();
      } catch (error) {
        this.fail(error);
      }
    }
    let state: StoredAudioState = 'failed';
    try {
      state = await this.options.file.finish();
    } catch (error) {
      this.fail(error);
    }
    return { state: this.failed ? 'failed' : state, durationMs: this.encoder.durationMs, bytes: this.options.file.bytes };
  }

  private detach() {
    if (this.stopped) return;
    this.stopped = true;
    for (const stop of this.stopListening) stop();
  }

  /** A spool whose write answers a promise (the disk) reports its failure through it. */
  private spool(written: unknown) {
    if (written instanceof Promise) written.catch((error: unknown) => this.fail(error));
  }

  private fail(error: unknown) {
    if (this.failed) return;
    this.failed = true;
    this.detach();
    this.options.onFailure(error);
  }
}
