import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PREVIEW_SAMPLE_RATE } from './decode-mono';
import { MAX_PREVIEW_SECONDS, recordMicrophone } from './record-microphone';

/** MediaRecorder as far as the recorder uses it: one chunk of data, then stop. */
class FakeMediaRecorder {
  static last: FakeMediaRecorder | null = null;
  state: 'inactive' | 'recording' = 'inactive';
  mimeType = 'audio/webm';
  ondataavailable: ((event: { data: Blob }) => void) | null = null;
  onstop: (() => void) | null = null;
  onerror: (() => void) | null = null;

  constructor(readonly stream: MediaStream) {
    FakeMediaRecorder.last = this;
  }

  start() {
    this.state = 'recording';
  }

  stop() {
    this.state = 'inactive';
    this.ondataavailable?.({ data: new Blob(['clip']) });
    this.onstop?.();
  }
}

/** Decoding at 16 kHz gives a stereo clip whose channels differ, so mixing down shows. */
function fakeDecoder(seconds: number) {
  const length = Math.round(seconds * PREVIEW_SAMPLE_RATE);
  const channels = [new Float32Array(length).fill(0.5), new Float32Array(length).fill(-0.1)];
  const contextRates: number[] = [];
  class FakeOfflineAudioContext {
    constructor(_channels: number, _length: number, sampleRate: number) {
      contextRates.push(sampleRate);
    }
    decodeAudioData = vi.fn(async () => ({ length, numberOfChannels: 2, getChannelData: (channel: number) => channels[channel]! }));
  }
  vi.stubGlobal('OfflineAudioContext', FakeOfflineAudioContext);
  return { contextRates };
}

function fakeStream() {
  const track = { stop: vi.fn() };
  return { stream: { getTracks: () => [track] } as unknown as MediaStream, track };
}

beforeEach(() => {
  vi.stubGlobal('MediaRecorder', FakeMediaRecorder);
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('recordMicrophone', () => {
  it('gives the recording as mono at 16 kHz once stopped, and releases the microphone', async () => {
    const { contextRates } = fakeDecoder(1);
    const { stream, track } = fakeStream();
    const recording = recordMicrophone(stream);
    expect(FakeMediaRecorder.last?.state).toBe('recording');
    recording.stop();
    const samples = await recording.samples;
    expect(contextRates).toEqual([PREVIEW_SAMPLE_RATE]);
    expect(samples).toHaveLength(PREVIEW_SAMPLE_RATE);
    expect(samples[0]).toBeCloseTo(0.2, 6);
    expect(track.stop).toHaveBeenCalled();
  });

  it(`stops by itself after ${MAX_PREVIEW_SECONDS} seconds and keeps no more than that`, async () => {
    vi.useFakeTimers();
    fakeDecoder(MAX_PREVIEW_SECONDS + 0.5);
    const recording = recordMicrophone(fakeStream().stream);
    vi.advanceTimersByTime(MAX_PREVIEW_SECONDS * 1000 - 1);
    expect(FakeMediaRecorder.last?.state).toBe('recording');
    vi.advanceTimersByTime(1);
    expect(FakeMediaRecorder.last?.state).toBe('inactive');
    expect(await recording.samples).toHaveLength(MAX_PREVIEW_SECONDS * PREVIEW_SAMPLE_RATE);
  });

  it('fails, still releasing the microphone, when the recorder does', async () => {
    fakeDecoder(1);
    const { stream, track } = fakeStream();
    const recording = recordMicrophone(stream);
    FakeMediaRecorder.last?.onerror?.();
    await expect(recording.samples).rejects.toThrow('The recording failed.');
    expect(track.stop).toHaveBeenCalled();
  });
});
