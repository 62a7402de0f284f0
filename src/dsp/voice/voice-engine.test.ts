import { describe, expect, it } from 'vitest';
import { NARROWBAND_RATE, WIDEBAND_RATE, type CallSampleRate } from '../../common/calls';
import { defaultVoiceSettings, type VoiceSettings, type VoiceType } from '../../common/voice';
import { fundamentalFrequency, rms } from '../../../tests/support/dsp/analysis';
import { harmonicsToNoiseRatio } from '../../../tests/support/dsp/quality';
import { harmonicTone, seededRandom, speechLikeSignal, toInt16 } from '../../../tests/support/dsp/speech-like-signal';
import { pitchOf, processFrames, soundingStretches, toFloat } from '../../../tests/support/dsp/voice-engine-harness';
import { SampleHistory } from './sample-history';
import { VoiceEngine } from './voice-engine';
import { VoiceEngineError } from './voice-engine-error';

const RATES: CallSampleRate[] = [WIDEBAND_RATE, NARROWBAND_RATE];
const settings = (pitch: number, speed = 1, voiceType: VoiceType = 'normal'): VoiceSettings => ({ voiceType, pitch, speed });

function errorCode(action: () => void): string | undefined {
  try {
    action();
  } catch (error) {
    return error instanceof VoiceEngineError ? error.code : 'other';
  }
  return undefined;
}

describe('VoiceEngine: its contract', () => {
  it('runs at 16 and 8 kHz only', () => {
    expect(new VoiceEngine(16_000, defaultVoiceSettings).frameSize).toBe(320);
    expect(new VoiceEngine(8_000, defaultVoiceSettings).frameSize).toBe(160);
    expect(errorCode(() => new VoiceEngine(48_000 as CallSampleRate, defaultVoiceSettings))).toBe('sample-rate');
  });

  it('throws on a frame of the wrong size rather than let any audio through', () => {
    const engine = new VoiceEngine(16_000, settings(1.5));
    const output = new Int16Array(319);
    expect(errorCode(() => engine.process(new Int16Array(319).fill(1000), output))).toBe('frame-size');
    expect(output.every((value) => value === 0)).toBe(true);
    expect(errorCode(() => engine.process(new Int16Array(320), new Int16Array(640)))).toBe('frame-size');
  });

  it('refuses a history to find its pitch marks on that holds less than a second', () => {
    expect(() => new VoiceEngine(16_000, settings(1.5), new SampleHistory(8_000))).toThrow('the history marks are found on holds 8192 samples, under a second at 16000 Hz');
    expect(new VoiceEngine(16_000, settings(1.5), new SampleHistory(16_000)).frameSize).toBe(320);
  });

  it('refuses settings outside the range of docs/product.md §5 and keeps the ones it had', () => {
    const engine = new VoiceEngine(16_000, settings(1.5));
    expect(errorCode(() => engine.update(settings(2.5)))).toBe('settings');
    expect(errorCode(() => engine.update(settings(1, 0.4)))).toBe('settings');
    expect(errorCode(() => engine.update(settings(Number.NaN)))).toBe('settings');
    expect(errorCode(() => engine.update({ voiceType: 'klingon' as VoiceType, pitch: 1, speed: 1 }))).toBe('settings');
    expect(engine.settings).toEqual(settings(1.5));
  });

  it.each(RATES)('passes the normal voice through sample for sample, with no delay (%i Hz)', (rate) => {
    const input = toInt16(speechLikeSignal({ sampleRate: rate, seconds: 3 }));
    const engine = new VoiceEngine(rate, defaultVoiceSettings);
    expect(processFrames(engine, input)).toEqual(input);
    expect(engine.latencySamples).toBe(0);
  });

  it('is back to an exact pass-through one frame after the effects are switched off', () => {
    const input = toInt16(speechLikeSignal({ sampleRate: 16_000, seconds: 2 }));
    const engine = new VoiceEngine(16_000, settings(1.5, 1, 'indian'));
    const output = new Int16Array(input.length);
    for (let start = 0; start + 320 <= input.length; start += 320) {
      if (start === 16_000) engine.update(defaultVoiceSettings);
      engine.process(input.subarray(start, start + 320), output.subarray(start, start + 320));
    }
    expect(output.subarray(16_320)).toEqual(input.subarray(16_320, output.length));
    expect(engine.latencySamples).toBe(0);
  });
});

describe('VoiceEngine: pitch', () => {
  const cases: [CallSampleRate, number, number][] = [];
  for (const rate of RATES) for (const f0 of [100, 150, 220]) for (const pitch of [0.5, 0.7, 1.5, 2]) cases.push([rate, f0, pitch]);

  it.each(cases)('at %i Hz moves a %i Hz voice by %f× to within 0.5 percent', (rate, f0, pitch) => {
    const input = toInt16(harmonicTone({ sampleRate: rate, seconds: 1.6, fundamental: f0 }));
    const output = toFloat(processFrames(new VoiceEngine(rate, settings(pitch)), input));
    const measured = pitchOf(output.subarray(Math.round(rate * 0.5), Math.round(rate * 0.5) + 8192), rate);
    expect(Math.abs(measured / (f0 * pitch) - 1)).toBeLessThan(0.005);
  });

  it.each(RATES)('keeps the harmonics clean: HNR at least 30 dB for pitch 1.5 on a steady 150 Hz voice of 15 harmonics (%i Hz)', (rate) => {
    const input = toInt16(harmonicTone({ sampleRate: rate, seconds: 2.5, fundamental: 150, harmonics: 15 }));
    const output = toFloat(processFrames(new VoiceEngine(rate, settings(1.5)), input));
    expect(harmonicsToNoiseRatio(output.subarray(rate, rate + 16_384), rate, 225)).toBeGreaterThanOrEqual(30);
  });

  // Issue 21: a tracker that stopped at 400 Hz took a 440 Hz voice's two periods for one (330 Hz out).
  it.each([
    [440, 1.5],
    [300, 2],
    [800, 0.75],
    [620, 1.25],
    [65, 1.5],
  ])('moves a %i Hz voice by pitch %f, not an octave off', (hz, pitch) => {
    const rate = 16_000;
    const output = toFloat(processFrames(new VoiceEngine(rate, settings(pitch)), toInt16(harmonicTone({ sampleRate: rate, seconds: 1.5, fundamental: hz }))));
    expect(Math.abs(fundamentalFrequency(output.subarray(rate / 2, rate / 2 + 8192), rate, 40, 1700) / (hz * pitch) - 1)).toBeLessThan(0.005);
  });

  it.each([1.5, 0.7])('follows a gliding voice at pitch %f', (pitch) => {
    const rate = 16_000;
    const glide = (seconds: number) => 120 + 20 * seconds;
    const input = toInt16(harmonicTone({ sampleRate: rate, seconds: 3, fundamental: glide }));
    const engine = new VoiceEngine(rate, settings(pitch));
    const output = toFloat(processFrames(engine, input));
    const delaySeconds = engine.effectLatencySamples / rate;
    for (const at of [0.5, 1, 1.5, 2, 2.5]) {
      const window = output.subarray(Math.round(rate * at) - 1024, Math.round(rate * at) + 1024);
      const expected = pitch * glide(at - delaySeconds);
      expect(Math.abs(pitchOf(window, rate) / expected - 1)).toBeLessThan(0.005);
    }
  });
});

describe('VoiceEngine: robustness', () => {
  const stressSettings: VoiceSettings[] = [settings(2), settings(0.5), settings(1.5, 0.5, 'chinese'), settings(0.7, 2, 'russian'), settings(1, 1, 'indian')];

  it.each(stressSettings)('never clips or goes silent for good after silence, full-scale noise and a click (%o)', (voice) => {
    const rate = 16_000;
    const random = seededRandom(3);
    const silence = new Int16Array(rate);
    const noise = Int16Array.from({ length: rate }, () => Math.floor(random() * 65_536) - 32_768);
    const click = new Int16Array(rate);
    click[4000] = 32_767;
    click[4001] = -32_768;
    const tone = toInt16(harmonicTone({ sampleRate: rate, seconds: 1, fundamental: 150, peak: 0.9 }));
    const engine = new VoiceEngine(rate, voice);
    const onSilence = processFrames(engine, silence);
    expect(onSilence.every((value) => value === 0)).toBe(true);
    for (const part of [noise, click, tone]) {
      const output = processFrames(engine, part);
      expect(Math.max(...output)).toBeLessThan(32_767);
      expect(Math.min(...output)).toBeGreaterThan(-32_767);
      if (part === tone) expect(rms(toFloat(output.subarray(rate / 2)))).toBeGreaterThan(0.1);
    }
  });

  it('changes settings mid-call without clicks', () => {
    const rate = 16_000;
    const input = toInt16(harmonicTone({ sampleRate: rate, seconds: 3, fundamental: 150 }));
    const changes = new Map<number, VoiceSettings>([
      [0.5, settings(1.5)],
      [1, settings(1.5, 1, 'indian')],
      [1.5, settings(0.7, 1, 'russian')],
      [2, settings(1.2, 1, 'hispanic')],
      [2.5, defaultVoiceSettings],
    ]);
    const engine = new VoiceEngine(rate, defaultVoiceSettings);
    const output = new Int16Array(input.length);
    for (let start = 0; start + 320 <= input.length; start += 320) {
      const change = changes.get(start / rate);
      if (change) engine.update(change);
      engine.process(input.subarray(start, start + 320), output.subarray(start, start + 320));
    }
    // A click is a jump the signal does not otherwise make: compare the largest second difference
    // around each change with the largest in the steady stretches on either side.
    const roughness = (from: number, to: number) => {
      let worst = 0;
      for (let i = from + 2; i < to; i += 1) worst = Math.max(worst, Math.abs(output[i]! - 2 * output[i - 1]! + output[i - 2]!));
      return worst;
    };
    for (const seconds of changes.keys()) {
      const at = Math.round(seconds * rate);
      const steady = Math.max(roughness(at - 4000, at - 1000), roughness(at + 2000, at + 5000));
      expect(roughness(at - 320, at + 960)).toBeLessThanOrEqual(steady * 1.25);
    }
  });
});

describe('VoiceEngine: delay', () => {
  it.each(RATES)('delays any effect by at most 30 ms (a period by at most half its length more), never plays sound before it arrives, and says so (%i Hz)', (rate) => {
    const engine = new VoiceEngine(rate, settings(1.5));
    expect(engine.effectLatencySamples).toBeLessThanOrEqual(0.03 * rate);
    // Half the period of the lowest voice tracked, 60 Hz: 5 ms or less for voices above 100 Hz.
    expect(engine.periodJitterSamples).toBeLessThanOrEqual(Math.ceil(rate / 60 / 2));
    const onset = Math.round(rate * 0.5);
    const input = new Int16Array(rate);
    input.set(toInt16(harmonicTone({ sampleRate: rate, seconds: 0.5, fundamental: 110 })), onset);
    const output = processFrames(engine, input);
    const heard = output.findIndex((value) => Math.abs(value) > 800);
    expect(heard - onset).toBeGreaterThanOrEqual(0);
    expect(heard - onset).toBeLessThanOrEqual(engine.effectLatencySamples + engine.periodJitterSamples);
    expect(engine.latencySamples).toBe(engine.effectLatencySamples);
  });

  // Bursts of 0.4 s of voice with 0.6 s pauses.
  function bursts(rate: CallSampleRate): { input: Int16Array; starts: number[] } {
    const input = new Int16Array(rate * 6);
    const voice = toInt16(harmonicTone({ sampleRate: rate, seconds: 0.4, fundamental: 150 }));
    const starts = [0.6, 1.6, 2.6, 3.6, 4.6].map((seconds) => Math.round(seconds * rate));
    for (const start of starts) input.set(voice, start);
    return { input, starts };
  }

  function runLive(rate: CallSampleRate, speed: number) {
    const { input, starts } = bursts(rate);
    const engine = new VoiceEngine(rate, settings(1, speed));
    const output = new Int16Array(input.length);
    let worstLatency = 0;
    for (let start = 0; start + engine.frameSize <= input.length; start += engine.frameSize) {
      engine.process(input.subarray(start, start + engine.frameSize), output.subarray(start, start + engine.frameSize));
      worstLatency = Math.max(worstLatency, engine.latencySamples);
    }
    return { engine, starts, stretches: soundingStretches(output, rate), worstLatency };
  }

  it.each([0.5, 0.7])('live speed %f stretches speech, wins the delay back in pauses, and stays within 300 ms', (speed) => {
    const rate = 16_000;
    const { engine, starts, stretches, worstLatency } = runLive(rate, speed);
    expect(worstLatency).toBeLessThanOrEqual(engine.maxLatencySamples);
    expect(stretches).toHaveLength(starts.length);
    stretches.forEach(([begin, end], index) => {
      const inputLength = 0.4 * rate;
      expect(end - begin).toBeGreaterThan(Math.min(inputLength / speed, inputLength + 0.2 * rate) - 0.02 * rate);
      expect(end - starts[index]! - inputLength).toBeLessThanOrEqual(0.3 * rate);
      // Each burst starts with the delay back to the pitch shifter's own.
      expect(begin - starts[index]!).toBeLessThanOrEqual(engine.effectLatencySamples + engine.periodJitterSamples);
    });
  });

  it('live speed 2 plays speech twice as fast after a pause, within 300 ms of its arrival', () => {
    const rate = 16_000;
    const { engine, starts, stretches, worstLatency } = runLive(rate, 2);
    expect(worstLatency).toBeLessThanOrEqual(engine.maxLatencySamples);
    expect(stretches).toHaveLength(starts.length);
    stretches.forEach(([begin, end], index) => {
      expect(end - begin).toBeLessThan(0.4 * rate * 0.6);
      expect(begin - starts[index]!).toBeLessThanOrEqual(0.3 * rate);
      expect(end - (starts[index]! + 0.4 * rate)).toBeLessThanOrEqual(0.3 * rate);
    });
  });
});
