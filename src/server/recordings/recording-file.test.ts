import { describe, expect, it } from 'vitest';
import { RECORDING_MAX_BYTES_PER_MINUTE } from '../../common/api/recordings';
import type { CallSampleRate } from '../../common/calls';
import { BaseLeg } from '../media/leg';
import { MediaBridge } from '../media/media-bridge';
import { oggOpusDurationMs } from '../media/ogg/ogg-duration';
import { recordingEncoder } from './recording-encoder';
import { RecordingFile, type SpooledFile } from './recording-file';

/** A leg that says a tone when told, frame by frame. */
class ToneLeg extends BaseLeg {
  readonly kind = 'echo' as const;
  private readonly frame: Int16Array;
  private index = 0;
  constructor(
    readonly sampleRate: CallSampleRate,
    private readonly hz: number,
  ) {
    super();
    this.frame = new Int16Array(sampleRate / 50);
  }
  speak() {
    for (let i = 0; i < this.frame.length; i += 1, this.index += 1) this.frame[i] = Math.round(12_000 * Math.sin((2 * Math.PI * this.hz * this.index) / this.sampleRate));
    this.emitFrame(this.frame);
  }
  send() {}
  protected release() {}
}

class MemoryFile implements SpooledFile {
  readonly chunks: Uint8Array[] = [];
  bytes = 0;
  write(bytes: Uint8Array) {
    this.chunks.push(bytes);
    this.bytes += bytes.length;
  }
  async finish() {
    return 'saved' as const;
  }
}

describe('RecordingFile', () => {
  it('writes both sides as Ogg Opus as the call goes, within 250 kB a minute, a narrowband side converted', async () => {
    const caller = new ToneLeg(16_000, 440);
    const callee = new ToneLeg(8_000, 660);
    const bridge = new MediaBridge(caller, callee);
    const file = new MemoryFile();
    const failures: unknown[] = [];
    const recording = new RecordingFile({ bridge, side: 'callee', file, encoder: recordingEncoder, onFailure: (error) => failures.push(error) });
    for (let i = 0; i < 250; i += 1) {
      caller.speak();
      callee.speak();
    }
    // A page a second reaches the spool while the call goes on.
    expect(file.bytes).toBeGreaterThan(0);
    const kept = await recording.stop();

    expect(failures).toEqual([]);
    expect(kept.state).toBe('saved');
    expect(kept.durationMs).toBeGreaterThanOrEqual(4_960);
    const bytes = Buffer.concat(file.chunks);
    expect(kept.bytes).toBe(bytes.length);
    expect(oggOpusDurationMs(bytes)).toBeCloseTo(kept.durationMs, -2);
    expect((bytes.length * 60_000) / kept.durationMs).toBeLessThanOrEqual(RECORDING_MAX_BYTES_PER_MINUTE);
  });

  it('stops at the first failure to write, says so once, and leaves the bridge running', async () => {
    const caller = new ToneLeg(16_000, 440);
    const callee = new ToneLeg(16_000, 660);
    const bridge = new MediaBridge(caller, callee);
    const failures: unknown[] = [];
    const file: SpooledFile = {
      bytes: 0,
      write: () => {
        throw new Error('EIO: i/o error');
      },
      finish: async () => 'failed',
    };
    const recording = new RecordingFile({ bridge, side: 'caller', file, encoder: recordingEncoder, onFailure: (error) => failures.push(error) });
    for (let i = 0; i < 120; i += 1) {
      caller.speak();
      callee.speak();
    }
    expect(failures).toHaveLength(1);
    expect((await recording.stop()).state).toBe('failed');
    expect(bridge.frames.out).toBe(240);
  });
});
