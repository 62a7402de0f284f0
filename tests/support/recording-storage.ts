import type { CallServiceDependencies } from '../../src/server/calls/call-service';
import type { SpooledFile, StereoEncoder } from '../../src/server/recordings/recording-file';
import type { StoredAudioState } from '../../src/server/storage/object-store';

/** What a recording's encoder was given: each channel's samples at 16 kHz, in order. */
interface CapturedRecording {
  left: number[];
  right: number[];
  finished: boolean;
}

/** A spooled file kept in memory; `failWrites` makes every write fail as a full disk would. */
class MemoryFile implements SpooledFile {
  bytes = 0;
  constructor(private readonly failWrites: boolean) {}
  write(bytes: Uint8Array): Promise<void> {
    if (this.failWrites) return Promise.reject(new Error('ENOSPC: no space left on device'));
    this.bytes += bytes.length;
    return Promise.resolve();
  }
  async finish(): Promise<StoredAudioState> {
    return this.failWrites ? 'failed' : 'saved';
  }
}

/**
 * Recording storage for tests that look at what the recorder hears rather than at the file: the
 * encoder keeps each channel's samples (so a test measures each side's tone exactly), the spool
 * keeps files in memory, or fails every write.
 */
export function capturingRecordingStorage({ failWrites = false } = {}) {
  const recordings: CapturedRecording[] = [];
  const storage: NonNullable<CallServiceDependencies['recording']> = {
    spool: { open: () => new MemoryFile(failWrites), onStored: () => {} },
    encoder: (sink): StereoEncoder => {
      const captured: CapturedRecording = { left: [], right: [], finished: false };
      recordings.push(captured);
      let frames = 0;
      const packet = new Uint8Array(60);
      return {
        writeFrame(left, right) {
          for (let i = 0; i < left.length; i += 1) captured.left.push(left[i]!);
          for (let i = 0; i < right.length; i += 1) captured.right.push(right[i]!);
          frames += 1;
          sink(packet);
        },
        finish() {
          captured.finished = true;
        },
        get durationMs() {
          return frames * 20;
        },
      };
    },
  };
  return { storage, recordings };
}
