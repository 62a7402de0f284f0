import os from 'node:os';
import { performance, PerformanceObserver } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { frameSamples, WIDEBAND_RATE } from '../../src/common/calls';
import { fundamentalFrequency } from '../../tests/support/dsp/analysis';
import { harmonicsToNoiseRatio } from '../../tests/support/dsp/quality';
import { harmonicTone, toInt16 } from '../../tests/support/dsp/speech-like-signal';
import { voicePartOfOutput } from '../../tests/support/dsp/voice-engine-harness';
import { voiceTypes } from '../../src/common/voice';
import { voiceCharacters } from '../../src/dsp/voice/voice-characters';
import { VoiceEngine } from '../../src/dsp/voice/voice-engine';
import { measureSpeech, speechClips, speechStream, speechTable, type SpeechCase, type SpeechRow } from './speech';
import {
  ConversionOnly,
  SoundTouchFrames,
  soundTouchRecording,
  SPEECH_WINDOWS,
  voxlineLive,
  voxlineRecording,
  type FrameProcessor,
  type LiveSubject,
  type RecordingSubject,
  type SoundTouchWindows,
} from './subjects';

/**
 * bench/voice: the voice engine against soundtouchjs 0.3.0 and a conversion-only baseline, in the
 * same process and run (issues 7 and 21; docs/benchmarks.md). Live subjects take 20 ms frames of
 * the speech fixtures (tests/fixtures/speech, end to end) one by one; recording subjects take the
 * whole of it at once; then every clip goes through each processor for the measures on speech.
 */

const RATE = WIDEBAND_RATE;
const FRAME = frameSamples(RATE);
const TARGET = { realTime: 1500, latencyMs: 30, fundamentalErrorPercent: 0.5, hnrDb: 30, speechShare: 0.98, noisyShare: 0.95, loudnessDb: 1 };
const SPEECH_PITCHES = [0.5, 0.75, 1.5, 2];
const NOISES = ['babble', 'traffic'];
const LIMITS = { seconds: 600, rounds: 50, warmup: 20 };
const PITCH = 1.5;
const SPEED = 1.25;
const TEST_HZ = 150;
/** Quality is measured over 16384 samples starting 1 s in, after every processor has settled. */
const QUALITY_START = RATE;
const QUALITY_LENGTH = 16_384;
/** The onset test: 0.5 s of silence, then the voice at half scale; heard from 5 % of that. */
const ONSET = RATE / 2;
const HEARD = 800;

interface Options {
  seconds: number;
  rounds: number;
  /** Unmeasured rounds first: V8 takes a minute or two of audio to settle on its fastest code. */
  warmup: number;
}

interface Row {
  name: string;
  realTime: number;
  frameP99Us: number | null;
  latencyMs: number | null;
  statedLatencyMs: number | null;
  fundamentalErrorPercent: number | null;
  hnrDb: number | null;
  lengthErrorPercent: number | null;
  turns: Turns;
  soundTouch: boolean;
}

function readOptions(): Options {
  const { values } = parseArgs({
    options: { seconds: { type: 'string', default: '60' }, rounds: { type: 'string', default: '5' }, warmup: { type: 'string', default: '2' } },
    strict: true,
  });
  const whole = (name: keyof typeof LIMITS, text: string, min: number) => {
    const value = Number(text);
    if (!Number.isInteger(value) || value < min || value > LIMITS[name]) throw new Error(`--${name} must be a whole number from ${min} to ${LIMITS[name]} (got "${text}")`);
    return value;
  };
  return { seconds: whole('seconds', values.seconds, 1), rounds: whole('rounds', values.rounds, 1), warmup: whole('warmup', values.warmup, 0) };
}

/** Every garbage collection of the run; the observer hears of them once the run yields. */
const collections: { start: number; duration: number }[] = [];
const gcObserver = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) collections.push({ start: entry.startTime, duration: entry.duration });
});
gcObserver.observe({ entryTypes: ['gc'] });

/** When each subject ran, to count the collections that fell in its turns afterwards. */
type Turns = [number, number][];

function collectionsDuring(turns: Turns): string {
  const inside = collections.filter(({ start }) => turns.some(([from, to]) => start >= from && start <= to));
  return `${inside.length} / ${inside.reduce((sum, { duration }) => sum + duration, 0).toFixed(1)}`;
}

function cpuSeconds(action: () => void, turns?: Turns): number {
  const began = performance.now();
  const before = process.cpuUsage();
  action();
  const used = process.cpuUsage(before);
  turns?.push([began, performance.now()]);
  return (used.user + used.system) / 1e6;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

function percentile(values: Float64Array, fraction: number): number {
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
}

/** Every frame of `input` through `processor`, untimed, for the quality and latency measures. */
function processAll(processor: FrameProcessor, input: Int16Array): Int16Array {
  const output = new Int16Array(input.length - (input.length % FRAME));
  for (let start = 0; start < output.length; start += FRAME) processor.process(input.subarray(start, start + FRAME), output.subarray(start, start + FRAME));
  return output;
}

/** Views of each frame, made before the timing starts so the loop itself allocates nothing. */
function framesOf(input: Int16Array): Int16Array[] {
  const frames: Int16Array[] = [];
  for (let start = 0; start + FRAME <= input.length; start += FRAME) frames.push(input.subarray(start, start + FRAME));
  return frames;
}

function timeFrames(processor: FrameProcessor, frames: Int16Array[], output: Int16Array, frameTimes: Float64Array) {
  for (let frame = 0; frame < frames.length; frame += 1) {
    const began = performance.now();
    processor.process(frames[frame]!, output);
    frameTimes[frame] = performance.now() - began;
  }
}

function quality(output: Int16Array, expectedHz: number, start: number): { errorPercent: number; hnrDb: number } {
  const segment = Float32Array.from(output.subarray(start, start + QUALITY_LENGTH), (value) => value / 32768);
  const measured = fundamentalFrequency(segment, RATE, 40, 900);
  return { errorPercent: Math.abs(measured / expectedHz - 1) * 100, hnrDb: harmonicsToNoiseRatio(segment, RATE, expectedHz) };
}

/** How much silence soundtouchjs's FIFO must start with so that it never runs dry on these inputs. */
function soundTouchPrefill(windows: SoundTouchWindows, inputs: Int16Array[], pitch = PITCH): number {
  let prefill = 0;
  for (const input of inputs) {
    const dry = new SoundTouchFrames(FRAME, pitch, windows, 0);
    processAll(dry, input);
    prefill = Math.max(prefill, dry.shortfall);
  }
  return prefill;
}

function measureLive(subjects: LiveSubject[], speech: Int16Array, steady: Int16Array, onset: Int16Array, options: Options): Row[] {
  const frames = framesOf(speech);
  const output = new Int16Array(FRAME);
  const times = new Float64Array(frames.length);
  const state = subjects.map(() => ({ realTimes: [] as number[], frameTimes: new Float64Array(frames.length * options.rounds), turns: [] as Turns }));
  // The subjects take turns round by round, so a burst of other work on the machine falls on all.
  for (let round = -options.warmup; round < options.rounds; round += 1) {
    subjects.forEach((subject, index) => {
      const processor = subject.create();
      const cpu = cpuSeconds(() => timeFrames(processor, frames, output, times), round < 0 ? undefined : state[index]!.turns);
      if (round < 0) return;
      state[index]!.realTimes.push((frames.length * FRAME) / RATE / cpu);
      state[index]!.frameTimes.set(times, round * frames.length);
    });
  }
  return subjects.map((subject, index) => {
    const steadyOut = processAll(subject.create(), steady);
    const heardAt = processAll(subject.create(), onset).findIndex((value) => Math.abs(value) > HEARD);
    const measured = subject.pitchRatio === null ? null : quality(steadyOut, TEST_HZ * subject.pitchRatio, QUALITY_START);
    return {
      name: subject.name,
      realTime: median(state[index]!.realTimes),
      frameP99Us: percentile(state[index]!.frameTimes, 0.99) * 1000,
      latencyMs: ((heardAt - ONSET) / RATE) * 1000,
      statedLatencyMs: subject.statedLatencyMs,
      fundamentalErrorPercent: measured?.errorPercent ?? null,
      hnrDb: measured?.hnrDb ?? null,
      lengthErrorPercent: null,
      turns: state[index]!.turns,
      soundTouch: subject.soundTouch,
    };
  });
}

function measureRecordings(subjects: RecordingSubject[], speech: Int16Array, steady: Int16Array, options: Options): Row[] {
  const state = subjects.map(() => ({ realTimes: [] as number[], lengthError: 0, turns: [] as Turns }));
  for (let round = -options.warmup; round < options.rounds; round += 1) {
    subjects.forEach((subject, index) => {
      let output: Int16Array = new Int16Array(0);
      const cpu = cpuSeconds(
        () => {
          output = subject.run(speech);
        },
        round < 0 ? undefined : state[index]!.turns,
      );
      if (round < 0) return;
      state[index]!.realTimes.push(speech.length / RATE / cpu);
      state[index]!.lengthError = (output.length / (speech.length / SPEED) - 1) * 100;
    });
  }
  return subjects.map((subject, index) => {
    const steadyOut = subject.run(steady);
    const measured = quality(steadyOut, TEST_HZ, Math.round(steadyOut.length / 2) - QUALITY_LENGTH / 2);
    return {
      name: subject.name,
      realTime: median(state[index]!.realTimes),
      frameP99Us: null,
      latencyMs: null,
      statedLatencyMs: null,
      fundamentalErrorPercent: measured.errorPercent,
      hnrDb: measured.hnrDb,
      lengthErrorPercent: state[index]!.lengthError,
      turns: state[index]!.turns,
      soundTouch: subject.soundTouch,
    };
  });
}

function table(rows: Row[], reference: Row): string {
  const cell = (value: number | null, digits: number, suffix = '') => (value === null ? '—' : `${value.toFixed(digits)}${suffix}`);
  const header = ['', 'real time (×, median)', 'frame p99 (µs)', 'added latency, measured (stated) ms', 'fundamental error', 'HNR (dB)', 'length error', 'GCs / ms', `${reference.name} ÷ this`];
  const lines = rows.map((row) => [
    row.name,
    cell(row.realTime, 0),
    cell(row.frameP99Us, 1),
    row.latencyMs === null ? 'offline' : `${row.latencyMs.toFixed(1)}${row.statedLatencyMs === null ? '' : ` (${row.statedLatencyMs.toFixed(1)})`}`,
    cell(row.fundamentalErrorPercent, 3, ' %'),
    cell(row.hnrDb, 1),
    cell(row.lengthErrorPercent, 2, ' %'),
    collectionsDuring(row.turns),
    row.soundTouch ? `${(reference.realTime / row.realTime).toFixed(2)}×` : '',
  ]);
  const all = [header, ...lines];
  const widths = header.map((_, column) => Math.max(...all.map((line) => line[column]!.length)));
  const format = (line: string[]) => `| ${line.map((text, column) => text.padEnd(widths[column]!)).join(' | ')} |`;
  return [format(header), format(widths.map((width) => '-'.repeat(width))), ...lines.map(format)].join('\n');
}

function verdicts(live: Row[], recordings: Row[], speech: SpeechRow[]) {
  const ours = live.find((row) => row.name.startsWith('Voxline pitch'))!;
  const withFormant = live.find((row) => row.name.includes('formant'))!;
  const fastestSoundTouch = Math.max(...live.filter((row) => row.soundTouch).map((row) => row.realTime));
  const checks: [string, boolean][] = [
    [`≥ ${TARGET.realTime}× real time for pitch and formant together: ${withFormant.realTime.toFixed(0)}× (pitch alone ${ours.realTime.toFixed(0)}×)`, withFormant.realTime >= TARGET.realTime],
    [`at least as fast as soundtouchjs in this run: ${ours.realTime.toFixed(0)}× against its best ${fastestSoundTouch.toFixed(0)}×`, ours.realTime >= fastestSoundTouch],
    [`added latency ≤ ${TARGET.latencyMs} ms: ${ours.latencyMs!.toFixed(1)} ms measured, ${ours.statedLatencyMs!.toFixed(1)} ms stated`, Math.max(ours.latencyMs!, ours.statedLatencyMs!) <= TARGET.latencyMs],
    [`fundamental error ≤ ${TARGET.fundamentalErrorPercent} %: ${ours.fundamentalErrorPercent!.toFixed(3)} %`, ours.fundamentalErrorPercent! <= TARGET.fundamentalErrorPercent],
    [`HNR ≥ ${TARGET.hnrDb} dB: ${ours.hnrDb!.toFixed(1)} dB`, ours.hnrDb! >= TARGET.hnrDb],
  ];
  const recording = recordings.find((row) => !row.soundTouch)!;
  checks.push([`recording length within 1 % of length ÷ ${SPEED}: ${recording.lengthErrorPercent!.toFixed(2)} %`, Math.abs(recording.lengthErrorPercent!) <= 1]);
  for (const row of speech.filter((speechRow) => speechRow.name.startsWith('Voxline'))) {
    const share = row.name.includes('noise') ? TARGET.noisyShare : TARGET.speechShare;
    const clean = !row.name.includes('noise');
    const met = row.withinTolerance >= share && row.octaveErrors === 0 && (!clean || (Math.abs(row.worstLoudnessDb) <= TARGET.loudnessDb && row.worstStepRatio <= 1));
    const figures = `${(row.withinTolerance * 100).toFixed(1)} % within 1 %, ${row.octaveErrors} octave jumps${clean ? `, loudness ${row.worstLoudnessDb.toFixed(2)} dB, steps ${row.worstStepRatio.toFixed(2)}×` : ''}`;
    checks.push([`${row.name}: ≥ ${share * 100} % of voiced frames within 1 %, no octave jump${clean ? ', loudness within 1 dB, no step above the input’s' : ''}: ${figures}`, met]);
  }
  for (const [text, met] of checks) console.log(`${met ? 'met    ' : 'MISSED '} ${text}`);
}

function speechCases(soundTouchPrefills: Map<string, number>): SpeechCase[] {
  const voxline = (name: string, voiceType: (typeof voiceTypes)[number], pitch: number, ratio: number, noise?: string): SpeechCase => ({
    name,
    create: () => new VoiceEngine(RATE, { voiceType, pitch, speed: 1 }),
    ratio,
    noise,
  });
  const soundTouch = (pitch: number, windows: SoundTouchWindows, label: string, noise?: string): SpeechCase => ({
    name: `soundtouchjs ${label}, pitch ${pitch}${noise ? `, ${noise} noise at 10 dB` : ''}`,
    create: () => new SoundTouchFrames(FRAME, pitch, windows, soundTouchPrefills.get(`${pitch}/${label}`)!),
    ratio: pitch,
    noise,
  });
  return [
    ...SPEECH_PITCHES.flatMap((pitch) => [
      voxline(`Voxline pitch ${pitch}`, 'normal', pitch, pitch),
      soundTouch(pitch, null, 'its windows'),
      soundTouch(pitch, SPEECH_WINDOWS, '40/15/8 ms'),
    ]),
    ...voiceTypes.filter((type) => type !== 'normal').map((type) => voxline(`Voxline '${type}' (pitch ${voiceCharacters[type].pitch}, formant ${voiceCharacters[type].formant})`, type, 1, voiceCharacters[type].pitch)),
    ...NOISES.flatMap((noise): SpeechCase[] => [
      voxline(`Voxline pitch ${PITCH}, ${noise} noise at 10 dB`, 'normal', PITCH, PITCH, noise),
      {
        name: `Voxline pitch ${PITCH}, ${noise} noise at 10 dB: the voice's part of the output`,
        voicePartOf: (clean, noisy) => voicePartOfOutput(RATE, { voiceType: 'normal', pitch: PITCH, speed: 1 }, clean, noisy),
        ratio: PITCH,
        noise,
      },
      soundTouch(PITCH, SPEECH_WINDOWS, '40/15/8 ms', noise),
      // What the measure can read of a voice in this noise: the noisy clip itself, unchanged.
      { name: `the noisy clip unchanged (pitch 1), ${noise} noise at 10 dB`, create: () => new ConversionOnly(FRAME), ratio: 1, noise },
    ]),
  ];
}

async function main() {
  const options = readOptions();
  const cpu = os.cpus();
  console.log(`bench/voice, ${new Date().toISOString()}: ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, Node ${process.version}, load average ${os.loadavg()[0]!.toFixed(2)}`);
  console.log(`${options.seconds} s of the speech fixtures end to end at ${RATE} Hz, ${FRAME}-sample frames, ${options.rounds} measured rounds after ${options.warmup} to warm up\n`);
  const clips = speechClips(RATE);
  const speech = speechStream(clips, RATE, options.seconds);
  const steady = toInt16(harmonicTone({ sampleRate: RATE, seconds: 3, fundamental: TEST_HZ, harmonics: 15 }));
  const onset = new Int16Array(RATE);
  onset.set(toInt16(harmonicTone({ sampleRate: RATE, seconds: 0.5, fundamental: TEST_HZ, harmonics: 15 })), ONSET);

  const prefillDefault = soundTouchPrefill(null, [speech, steady, onset]);
  const prefillSpeech = soundTouchPrefill(SPEECH_WINDOWS, [speech, steady, onset]);
  const live: LiveSubject[] = [
    { name: 'baseline: Int16 → Float32 → Int16', create: () => new ConversionOnly(FRAME), pitchRatio: 1, statedLatencyMs: null, soundTouch: false },
    voxlineLive(`Voxline pitch ${PITCH}`, { voiceType: 'normal', pitch: PITCH, speed: 1 }, PITCH),
    {
      name: `soundtouchjs pitch ${PITCH}, its windows`,
      create: () => new SoundTouchFrames(FRAME, PITCH, null, prefillDefault),
      pitchRatio: PITCH,
      statedLatencyMs: null,
      soundTouch: true,
    },
    {
      name: `soundtouchjs pitch ${PITCH}, 40/15/8 ms`,
      create: () => new SoundTouchFrames(FRAME, PITCH, SPEECH_WINDOWS, prefillSpeech),
      pitchRatio: PITCH,
      statedLatencyMs: null,
      soundTouch: true,
    },
    voxlineLive("Voxline 'russian' preset", { voiceType: 'russian', pitch: 1, speed: 1 }, voiceCharacters.russian.pitch),
    voxlineLive(
      `Voxline pitch ${PITCH} + 'caucasian' (formant ${voiceCharacters.caucasian.formant})`,
      { voiceType: 'caucasian', pitch: PITCH, speed: 1 },
      PITCH * voiceCharacters.caucasian.pitch,
    ),
  ];
  const recordings: RecordingSubject[] = [
    voxlineRecording(`Voxline speed ${SPEED} (recording)`, { voiceType: 'normal', pitch: 1, speed: SPEED }),
    { name: `soundtouchjs tempo ${SPEED}, its windows`, run: (recording) => soundTouchRecording(recording, SPEED, null), soundTouch: true },
    { name: `soundtouchjs tempo ${SPEED}, 40/15/8 ms`, run: (recording) => soundTouchRecording(recording, SPEED, SPEECH_WINDOWS), soundTouch: true },
  ];

  const liveRows = measureLive(live, speech, steady, onset, options);
  const recordingRows = measureRecordings(recordings, speech, steady, options);
  // The observer's entries arrive on a later turn of the event loop than setImmediate's.
  await new Promise((resolve) => setTimeout(resolve, 100));
  gcObserver.disconnect();
  console.log(`Live, pitch ${PITCH} (soundtouchjs FIFO prefilled with ${prefillDefault} and ${prefillSpeech} samples so it never runs dry)\n`);
  console.log(table(liveRows, liveRows[1]!));
  console.log(`\nRecordings, speed ${SPEED}\n`);
  console.log(table(recordingRows, recordingRows[0]!));
  const prefills = new Map<string, number>();
  for (const pitch of SPEECH_PITCHES) {
    prefills.set(`${pitch}/its windows`, soundTouchPrefill(null, [speech], pitch));
    prefills.set(`${pitch}/40/15/8 ms`, soundTouchPrefill(SPEECH_WINDOWS, [speech], pitch));
  }
  const speechRows = measureSpeech(speechCases(prefills), clips, FRAME, RATE);
  console.log(`\nOn speech: ${clips.length} clips of tests/fixtures/speech (YIN on input and output, 10 ms hops; tests/support/dsp/speech-quality.ts)\n`);
  console.log(speechTable(speechRows));
  console.log('');
  verdicts(liveRows, recordingRows, speechRows);
}

await main();
