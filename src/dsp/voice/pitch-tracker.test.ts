import { describe, expect, it } from 'vitest';
import { sine } from '../../../tests/support/dsp/analysis';
import { bytesAllocatedIn } from '../../../tests/support/heap-allocations';
import { PitchTracker } from './pitch-tracker';
import { SampleHistory } from './sample-history';
import { harmonicTone, seededRandom, toInt16 } from '../../../tests/support/dsp/speech-like-signal';
import { readWav } from '../../../tests/support/dsp/wav-file';

function trackerOver(samples: Int16Array, rate: number): PitchTracker {
  const history = new SampleHistory(samples.length);
  history.writeInt16(samples);
  return new PitchTracker(history, rate);
}

describe('PitchTracker', () => {
  const cases = [16_000, 8_000].flatMap((rate) => [62, 80, 115, 150, 220, 310, 390, 440, 620, 800].map((hz) => [rate, hz]));

  it.each(cases)('at %i Hz finds the period of a %i Hz voice to within 0.05 percent (0.1 above 500 Hz)', (rate, hz) => {
    const tracker = trackerOver(toInt16(harmonicTone({ sampleRate: rate, seconds: 0.5, fundamental: hz })), rate);
    // Above 500 Hz a period is a handful of samples at 8 kHz, and the interpolation between them shows.
    const tolerance = hz > 500 ? 0.001 : 0.0005;
    for (const at of [0.2, 0.3, 0.4]) expect(Math.abs(tracker.estimate(at * rate) / (rate / hz) - 1)).toBeLessThan(tolerance);
  });

  it('hears the pitch of a voice whose fundamental is missing, not an octave off', () => {
    const rate = 16_000;
    const voice = new Float32Array(rate / 2);
    for (let k = 2; k <= 12; k += 1) {
      const partial = sine(150 * k, rate, voice.length, 0.3 / k, k);
      for (let i = 0; i < voice.length; i += 1) voice[i]! += partial[i]!;
    }
    const tracker = trackerOver(toInt16(voice), rate);
    expect(tracker.estimate(0.3 * rate) / (rate / 150)).toBeCloseTo(1, 3);
  });

  it('keeps up, mark after mark, with a voice gliding at up to 380 Hz a second', () => {
    const rate = 16_000;
    const glide = (seconds: number) => 160 + 60 * Math.sin(2 * Math.PI * seconds);
    const tracker = trackerOver(toInt16(harmonicTone({ sampleRate: rate, seconds: 2, fundamental: glide })), rate);
    // As the shifter walks its marks: one period at a time, each estimate covering the period before.
    for (let at = 1000; at < 2 * rate - 400; ) {
      const period = tracker.estimate(at);
      expect(Math.abs(period / (rate / glide((at - period / 2) / rate)) - 1)).toBeLessThan(0.01);
      at += period;
    }
  });

  it('follows a child calling out, gliding from 300 to 800 Hz in half a second and back, with no octave jump', () => {
    const rate = 16_000;
    const glide = (seconds: number) => 550 - 250 * Math.cos(2 * Math.PI * seconds);
    const tracker = trackerOver(toInt16(harmonicTone({ sampleRate: rate, seconds: 1.5, fundamental: glide })), rate);
    for (let at = 800; at < 1.5 * rate - 400; ) {
      const period = tracker.estimate(at);
      expect(Math.abs(period / (rate / glide((at - period / 2) / rate)) - 1)).toBeLessThan(0.02);
      at += period;
    }
  });

  it('takes a creaky 65 Hz voice, every other pulse weaker and each period a little off, for one period, not two', () => {
    const rate = 16_000;
    const random = seededRandom(11);
    const voice = new Float32Array(rate);
    // Glottal pulses as decaying 700 Hz bursts; jitter of ±3 % and alternate pulses at 60 %.
    for (let at = 0, pulse = 0; at < voice.length; pulse += 1) {
      const period = (rate / 65) * (1 + 0.06 * (random() - 0.5));
      const strength = pulse % 2 === 0 ? 1 : 0.6;
      for (let i = 0; i < period && at + i < voice.length; i += 1) voice[at + i] = 0.5 * strength * Math.exp(-i / 40) * Math.sin((2 * Math.PI * 700 * i) / rate);
      at += Math.round(period);
    }
    const tracker = trackerOver(toInt16(voice), rate);
    for (let at = 2000; at < rate - 600; at += 160) {
      const period = tracker.estimate(at);
      if (period === 0) continue;
      // Half or twice the period would be an octave error; the jitter moves it a few percent.
      expect(period / (rate / 65)).toBeGreaterThan(0.85);
      expect(period / (rate / 65)).toBeLessThan(1.15);
    }
  });

  it.each([300, 500, 700])('catches a %i Hz voice within 6 ms of its start after a fricative', (hz) => {
    const rate = 16_000;
    const random = seededRandom(3);
    const onset = 0.2 * rate;
    const voice = new Float32Array(rate / 2);
    for (let i = 0; i < onset; i += 1) voice[i] = 0.05 * (random() * 2 - 1);
    voice.set(harmonicTone({ sampleRate: rate, seconds: 0.3, fundamental: hz }), onset);
    const tracker = trackerOver(toInt16(voice), rate);
    // Asked every 5 ms, as the shifter asks while nothing is voiced; before issue 21's second
    // round the voice was caught 10 ms after its start, its first periods passed on unchanged.
    let caught = Number.POSITIVE_INFINITY;
    for (let at = 0.1 * rate; at < 0.4 * rate && caught === Number.POSITIVE_INFINITY; at += 80) {
      if (Math.abs(tracker.estimate(at) / (rate / hz) - 1) < 0.01) caught = at;
    }
    expect((caught - onset) / rate).toBeLessThanOrEqual(0.006);
  });

  it('puts a voice that leaps an octave just after it starts right within 15 ms, not at the next 30 ms check', () => {
    const rate = 16_000;
    const onset = 0.2 * rate;
    const leap = onset + 0.01 * rate;
    const low = harmonicTone({ sampleRate: rate, seconds: 0.5, fundamental: 250 });
    const high = harmonicTone({ sampleRate: rate, seconds: 0.5, fundamental: 500 });
    const voice = Float32Array.from({ length: rate / 2 }, (_, i) => (i < onset ? 0 : i < leap ? low[i]! : high[i]!));
    const tracker = trackerOver(toInt16(voice), rate);
    let followed = Number.POSITIVE_INFINITY;
    for (let at = 0.1 * rate; at < 0.45 * rate && followed === Number.POSITIVE_INFINITY; ) {
      const period = tracker.estimate(at);
      if (at > leap && Math.abs(period / (rate / 500) - 1) < 0.01) followed = at;
      at += period > 0 ? period : 80;
    }
    expect((followed - leap) / rate).toBeLessThanOrEqual(0.015);
  });

  it('tracks speech without leaving garbage behind, so no collection pauses a call for it', async () => {
    const rate = 16_000;
    const clips = ['deep-male', 'male', 'female', 'czech-child', 'child', 'high-child'].map(
      (speaker) => readWav(new URL(`../../../tests/fixtures/speech/sample-sentence-${speaker}.wav`, import.meta.url).pathname).samples,
    );
    const speech = new Int16Array(clips.reduce((length, clip) => length + clip.length, 0));
    let offset = 0;
    for (const clip of clips) {
      speech.set(clip, offset);
      offset += clip.length;
    }
    const tracker = trackerOver(speech, rate);
    const track = () => {
      tracker.reset();
      for (let at = 2000; at < speech.length - 1000; ) {
        const period = tracker.estimate(at);
        at += period > 0 ? period : 80;
      }
    };
    // Warmed up first, so that what is measured is the optimised code a long call runs. A read
    // outside a typed array once made V8 box every partial sum of the correlation loops: about
    // 40 MB for these six sentences, where a few kB of compiled code and feedback are all there is now.
    for (let round = 0; round < 3; round += 1) track();
    expect(await bytesAllocatedIn('pitch-tracker', track)).toBeLessThan(1_000_000);
  });

  it('calls silence and noise unvoiced', () => {
    const rate = 16_000;
    const random = seededRandom(5);
    expect(trackerOver(new Int16Array(rate / 2), rate).estimate(0.3 * rate)).toBe(0);
    const noise = Int16Array.from({ length: rate / 2 }, () => Math.round((random() * 2 - 1) * 10_000));
    expect(trackerOver(noise, rate).estimate(0.3 * rate)).toBe(0);
  });
});
