import { afterEach, describe, expect, it, vi } from 'vitest';
import { PREVIEW_SAMPLE_RATE } from './decode-mono';
import { loadSampleSentence, SAMPLE_SENTENCE_URL } from './sample-sentence';

/** Decoding as the browser would at the preview's rate: a stereo clip whose channels differ, so mixing down shows. */
function fakeDecoder(decode: (bytes: ArrayBuffer) => Promise<{ length: number; numberOfChannels: number; getChannelData(channel: number): Float32Array }>) {
  const contextRates: number[] = [];
  const decoded: ArrayBuffer[] = [];
  class FakeOfflineAudioContext {
    constructor(_channels: number, _length: number, sampleRate: number) {
      contextRates.push(sampleRate);
    }
    decodeAudioData = (bytes: ArrayBuffer) => {
      decoded.push(bytes);
      return decode(bytes);
    };
  }
  vi.stubGlobal('OfflineAudioContext', FakeOfflineAudioContext);
  return { contextRates, decoded };
}

const stereo = (length: number) => {
  const channels = [new Float32Array(length).fill(0.5), new Float32Array(length).fill(-0.1)];
  return async () => ({ length, numberOfChannels: 2, getChannelData: (channel: number) => channels[channel]! });
};

afterEach(() => vi.unstubAllGlobals());

describe('loadSampleSentence', () => {
  it('downloads the sentence served with the app and gives it as mono at the preview rate', async () => {
    const fetchStub = vi.fn(async () => new Response(new Uint8Array([1, 2, 3])));
    vi.stubGlobal('fetch', fetchStub);
    const { contextRates, decoded } = fakeDecoder(stereo(PREVIEW_SAMPLE_RATE));
    const samples = await loadSampleSentence();
    expect(fetchStub).toHaveBeenCalledWith('/sounds/sample-sentence.wav');
    expect(SAMPLE_SENTENCE_URL).toBe('/sounds/sample-sentence.wav');
    expect([...new Uint8Array(decoded[0]!)]).toEqual([1, 2, 3]);
    expect(contextRates).toEqual([PREVIEW_SAMPLE_RATE]);
    expect(samples).toHaveLength(PREVIEW_SAMPLE_RATE);
    expect(samples[0]).toBeCloseTo(0.2, 6);
  });

  it('says what went wrong: no connection, an HTTP error, or a file the browser cannot decode', async () => {
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(loadSampleSentence()).rejects.toThrow('The sample sentence could not be downloaded. Check your connection and try again.');
    vi.stubGlobal('fetch', async () => new Response('missing', { status: 404 }));
    await expect(loadSampleSentence()).rejects.toThrow('The sample sentence could not be downloaded (HTTP 404). Please try again.');
    vi.stubGlobal('fetch', async () => new Response('not audio'));
    fakeDecoder(() => Promise.reject(new DOMException('Unable to decode audio data', 'EncodingError')));
    await expect(loadSampleSentence()).rejects.toThrow('Your browser could not read the sample sentence.');
  });
});
