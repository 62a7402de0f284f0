import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { int16ToFloat32 } from '../src/dsp/pcm';
import { changeRecordedVoice } from '../src/dsp/voice/recording';
import { readMonoPcmWav } from '../src/server/media/wav-file';
import { encodeOggOpus } from './voice-samples/ogg-opus';
import { encodePng } from './voice-samples/png';
import { renderSpectrogram } from './voice-samples/spectrogram';
import { clipFile, sampleSpeakers, spectrogramFile, voiceSamples, type SampleSpeaker } from './voice-samples/voice-sample-set';
import { replaceVoicesSection, voicesSection } from './voice-samples/voices-doc';

/**
 * docs/voices.md's clips and spectrograms: the sample sentence by two speakers through the voice
 * engine (the build the server and the browser run) for every voice character and for pitch 0.75
 * and 1.5; and the Voice Changer's sample sentence, src/web/public/sounds/sample-sentence.wav.
 *
 *   npm run docs:voices [-- male.wav female.wav]   (other recordings than the fixtures, to try)
 */

const SAMPLE_RATE = 16_000;
const MAX_SECONDS = 4;
const FADE_SECONDS = 0.03;
/** Speech at 24 kbit/s in Opus is close to the 16-bit original, at a twentieth of the size. */
const OPUS_BITRATE = 24_000;
const OUT_DIR = 'docs/voices';
const DOC = 'docs/voices.md';
const PUBLIC_SAMPLE = 'src/web/public/sounds/sample-sentence.wav';

function readSentence(file: string): Int16Array {
  const { samples, sampleRate } = readMonoPcmWav(file);
  if (sampleRate !== SAMPLE_RATE) throw new Error(`${file} is at ${sampleRate} Hz; the sample sentence must be at ${SAMPLE_RATE} Hz`);
  const length = Math.min(samples.length, SAMPLE_RATE * MAX_SECONDS);
  const kept = samples.slice(0, length);
  if (length < samples.length) {
    const fade = Math.round(SAMPLE_RATE * FADE_SECONDS);
    for (let i = 0; i < fade; i += 1) kept[length - 1 - i] = Math.round((kept[length - 1 - i]! * i) / fade);
  }
  return kept;
}

function wavFile(samples: Int16Array, sampleRate: number): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + samples.byteLength, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(samples.byteLength, 40);
  return Buffer.concat([header, Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength)]);
}

function speakersFromArguments(): readonly SampleSpeaker[] {
  const files = process.argv.slice(2);
  if (files.length === 0) return sampleSpeakers;
  if (files.length !== sampleSpeakers.length) throw new Error(`give ${sampleSpeakers.length} WAV files (${sampleSpeakers.map((speaker) => speaker.name).join(', ')}) or none`);
  return sampleSpeakers.map((speaker, i) => ({ ...speaker, file: files[i]! }));
}

const speakers = speakersFromArguments();
rmSync(OUT_DIR, { recursive: true, force: true });
mkdirSync(OUT_DIR, { recursive: true });
for (const speaker of speakers) {
  const sentence = readSentence(speaker.file);
  if (speaker === speakers[0]) writeFileSync(PUBLIC_SAMPLE, wavFile(sentence, SAMPLE_RATE));
  for (const sample of voiceSamples) {
    const changed = changeRecordedVoice(sentence, SAMPLE_RATE, sample.settings);
    writeFileSync(join(OUT_DIR, clipFile(speaker, sample)), encodeOggOpus(changed, SAMPLE_RATE, OPUS_BITRATE));
    writeFileSync(join(OUT_DIR, spectrogramFile(speaker, sample)), encodePng(renderSpectrogram(int16ToFloat32(changed), SAMPLE_RATE)));
  }
}
writeFileSync(DOC, replaceVoicesSection(readFileSync(DOC, 'utf8'), voicesSection(voiceSamples, speakers)));

const bytes = readdirSync(OUT_DIR).reduce((sum, name) => sum + statSync(join(OUT_DIR, name)).size, 0);
console.log(`${voiceSamples.length * speakers.length} clips and spectrograms in ${OUT_DIR}/ (${(bytes / 1024).toFixed(0)} KiB), ${DOC} and ${PUBLIC_SAMPLE} (${(statSync(PUBLIC_SAMPLE).size / 1024).toFixed(0)} KiB)`);
