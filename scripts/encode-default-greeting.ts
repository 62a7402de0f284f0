// Writes a 16 kHz mono WAV as mono Ogg Opus (scripts/generate-default-greeting.sh).
import fs from 'node:fs';
import { readMonoPcmWav } from '../src/server/media/wav-file';
import { encodeOggOpus } from '../src/server/voicemail/ogg-opus-encode';

const [input, output] = process.argv.slice(2);
if (!input || !output) throw new Error('usage: encode-default-greeting.ts <in.wav> <out.ogg>');
const wav = readMonoPcmWav(input);
if (wav.sampleRate !== 16_000) throw new Error(`${input} must be sampled at 16 kHz, not ${wav.sampleRate} Hz`);
const ogg = encodeOggOpus(wav.samples);
fs.writeFileSync(output, ogg);
console.log(`wrote ${output} (${ogg.length} bytes, ${(wav.samples.length / 16_000).toFixed(1)} s)`);
