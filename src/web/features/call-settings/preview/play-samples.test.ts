import { afterEach, describe, expect, it, vi } from 'vitest';
import { playSamples } from './play-samples';

/** Web Audio as far as playback uses it: one buffer, one source, and the context's life. */
function fakeAudioContext() {
  const made = { rates: [] as number[], copied: [] as Float32Array[], started: 0, closed: 0, source: null as null | { onended: (() => void) | null; stop: () => void } };
  class FakeAudioContext {
    destination = {};
    createBuffer(_channels: number, _length: number, sampleRate: number) {
      made.rates.push(sampleRate);
      return { copyToChannel: (samples: Float32Array) => made.copied.push(samples) };
    }
    createBufferSource() {
      const source = {
        buffer: null as unknown,
        onended: null as (() => void) | null,
        connect: vi.fn(),
        start: () => (made.started += 1),
        stop: () => source.onended?.(),
      };
      made.source = source;
      return source;
    }
    resume = () => Promise.resolve();
    close = () => {
      made.closed += 1;
      return Promise.resolve();
    };
  }
  vi.stubGlobal('AudioContext', FakeAudioContext);
  return made;
}

afterEach(() => vi.unstubAllGlobals());

describe('playSamples', () => {
  it('plays the samples at their own rate and closes the context once they end', async () => {
    const made = fakeAudioContext();
    const samples = new Float32Array([0.1, -0.1]);
    const playback = playSamples(samples, 16_000);
    expect(made.rates).toEqual([16_000]);
    expect(made.copied).toEqual([samples]);
    expect(made.started).toBe(1);
    made.source?.onended?.();
    await playback.ended;
    expect(made.closed).toBe(1);
  });

  it('ends when stopped', async () => {
    const made = fakeAudioContext();
    const playback = playSamples(new Float32Array(16_000), 16_000);
    playback.stop();
    await playback.ended;
    expect(made.closed).toBe(1);
  });
});
