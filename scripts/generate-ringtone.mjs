// Writes src/web/public/sounds/ringtone.wav, the Call Receiver's ringtone (docs/product.md §4), so no audio is
// downloaded: the North American ring, 440 Hz + 480 Hz, 2 s on and 4 s off, one 6 s cycle that the
// page loops. Mono 16-bit PCM at 8 kHz (about 96 kB). Run once with `node scripts/generate-ringtone.mjs`.
import fs from 'node:fs';

const SAMPLE_RATE = 8000;
const CYCLE_S = 6;
const RING_S = 2;
const FADE_S = 0.01;
const AMPLITUDE = 0.35;

const samples = SAMPLE_RATE * CYCLE_S;
const data = Buffer.alloc(samples * 2);
for (let i = 0; i < samples; i += 1) {
  const t = i / SAMPLE_RATE;
  let value = 0;
  if (t < RING_S) {
    // Short fades keep the tone from clicking where it starts and stops.
    const envelope = Math.min(1, t / FADE_S, (RING_S - t) / FADE_S);
    value = envelope * AMPLITUDE * (Math.sin(2 * Math.PI * 440 * t) + Math.sin(2 * Math.PI * 480 * t));
  }
  data.writeInt16LE(Math.round(Math.max(-1, Math.min(1, value)) * 32767), i * 2);
}

const header = Buffer.alloc(44);
header.write('RIFF', 0, 'ascii');
header.writeUInt32LE(36 + data.length, 4);
header.write('WAVE', 8, 'ascii');
header.write('fmt ', 12, 'ascii');
header.writeUInt32LE(16, 16);
header.writeUInt16LE(1, 20); // PCM
header.writeUInt16LE(1, 22); // mono
header.writeUInt32LE(SAMPLE_RATE, 24);
header.writeUInt32LE(SAMPLE_RATE * 2, 28);
header.writeUInt16LE(2, 32);
header.writeUInt16LE(16, 34);
header.write('data', 36, 'ascii');
header.writeUInt32LE(data.length, 40);

const target = new URL('../src/web/public/sounds/ringtone.wav', import.meta.url);
fs.writeFileSync(target, Buffer.concat([header, data]));
console.log(`wrote ${target.pathname} (${header.length + data.length} bytes)`);
