import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * WAV files for Chromium's fake microphone (--use-file-for-fake-audio-capture).
 * Chromium captures 16-bit PCM exactly; 24-bit files are captured as silence without any error,
 * so everything here writes 16-bit PCM mono.
 */

export interface SineWavOptions {
  /** Tone frequency in Hz. */
  frequency: number;
  /** Length of the tone in seconds (before the silence padding). */
  seconds: number;
  /** Samples per second; 48000 by default. */
  sampleRate?: number;
  /** Peak amplitude from 0 to 1; 0.5 by default. */
  amplitude?: number;
  /**
   * Seconds of silence appended after the tone; 2 by default. With `%noloop` Chromium repeats the
   * file's last 10 ms forever, so the padding makes the microphone go quiet after the tone.
   * Use 0 for a file meant to loop (a whole number of seconds of tone then loops seamlessly).
   */
  silenceSeconds?: number;
  /** Fade-in and fade-out length in seconds (avoids clicks); 0.01 by default. */
  fadeSeconds?: number;
  /** Folder to write into; a temporary folder (removed when the process exits) by default. */
  dir?: string;
  /** File name; derived from the options by default. */
  fileName?: string;
}

export interface WavInfo {
  audioFormat: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  dataBytes: number;
  seconds: number;
}

let defaultDir: string | undefined;

/** A per-process temporary folder for generated WAVs, removed when the process exits. */
function wavTempDir(): string {
  if (!defaultDir) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'voxline-e2e-wav-'));
    defaultDir = dir;
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  }
  return defaultDir;
}

/** Samples of a sine tone with short linear fades, followed by silence. */
function sineSamples({
  frequency,
  seconds,
  sampleRate = 48_000,
  amplitude = 0.5,
  silenceSeconds = 2,
  fadeSeconds = 0.01,
}: Omit<SineWavOptions, 'dir' | 'fileName'>): Float32Array {
  if (!(frequency > 0 && frequency < sampleRate / 2)) throw new RangeError(`frequency must be between 0 and ${sampleRate / 2} Hz (got ${frequency})`);
  if (!(seconds > 0)) throw new RangeError(`seconds must be positive (got ${seconds})`);
  if (!(amplitude > 0 && amplitude <= 1)) throw new RangeError(`amplitude must be in (0, 1] (got ${amplitude})`);
  if (!(silenceSeconds >= 0)) throw new RangeError(`silenceSeconds must not be negative (got ${silenceSeconds})`);
  const toneLength = Math.round(seconds * sampleRate);
  const fadeLength = Math.min(Math.round(fadeSeconds * sampleRate), Math.floor(toneLength / 2));
  const samples = new Float32Array(toneLength + Math.round(silenceSeconds * sampleRate));
  for (let i = 0; i < toneLength; i++) {
    const fade = fadeLength > 0 ? Math.min(1, i / fadeLength, (toneLength - 1 - i) / fadeLength) : 1;
    samples[i] = amplitude * fade * Math.sin((2 * Math.PI * frequency * i) / sampleRate);
  }
  return samples;
}

/** Encodes samples in [-1, 1] as a 16-bit PCM mono WAV file. */
export function encodeWav(samples: Float32Array, sampleRate = 48_000): Buffer {
  const dataBytes = samples.length * 2;
  const buffer = Buffer.alloc(44 + dataBytes);
  buffer.write('RIFF', 0, 'ascii');
  buffer.writeUInt32LE(36 + dataBytes, 4);
  buffer.write('WAVE', 8, 'ascii');
  buffer.write('fmt ', 12, 'ascii');
  buffer.writeUInt32LE(16, 16); // fmt chunk size
  buffer.writeUInt16LE(1, 20); // PCM
  buffer.writeUInt16LE(1, 22); // mono
  buffer.writeUInt32LE(sampleRate, 24);
  buffer.writeUInt32LE(sampleRate * 2, 28); // byte rate
  buffer.writeUInt16LE(2, 32); // block align
  buffer.writeUInt16LE(16, 34); // bits per sample
  buffer.write('data', 36, 'ascii');
  buffer.writeUInt32LE(dataBytes, 40);
  for (let i = 0; i < samples.length; i++) {
    const clamped = Math.max(-1, Math.min(1, samples[i] ?? 0));
    buffer.writeInt16LE(Math.round(clamped < 0 ? clamped * 0x8000 : clamped * 0x7fff), 44 + i * 2);
  }
  return buffer;
}

/**
 * Writes a 16-bit PCM mono WAV of a sine tone followed by silence and returns its absolute path.
 *
 *   const wav = writeSineWav({ frequency: 440, seconds: 10 });
 */
export function writeSineWav(options: SineWavOptions): string {
  const sampleRate = options.sampleRate ?? 48_000;
  const dir = options.dir ?? wavTempDir();
  fs.mkdirSync(dir, { recursive: true });
  const fileName =
    options.fileName ?? `sine-${options.frequency}hz-${options.seconds}s-${sampleRate}-${process.pid}-${Date.now().toString(36)}.wav`;
  const filePath = path.resolve(dir, fileName);
  fs.writeFileSync(filePath, encodeWav(sineSamples({ ...options, sampleRate }), sampleRate));
  return filePath;
}

/** Reads a WAV header (RIFF chunks), so a harness can refuse files Chromium would capture as silence. */
function readWavInfo(filePath: string): WavInfo {
  const bytes = fs.readFileSync(filePath);
  if (bytes.length < 12 || bytes.toString('ascii', 0, 4) !== 'RIFF' || bytes.toString('ascii', 8, 12) !== 'WAVE') {
    throw new Error(`${filePath} is not a RIFF/WAVE file`);
  }
  let format: Omit<WavInfo, 'dataBytes' | 'seconds'> | undefined;
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const id = bytes.toString('ascii', offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ' && body + 16 <= bytes.length) {
      format = {
        audioFormat: bytes.readUInt16LE(body),
        channels: bytes.readUInt16LE(body + 2),
        sampleRate: bytes.readUInt32LE(body + 4),
        bitsPerSample: bytes.readUInt16LE(body + 14),
      };
    } else if (id === 'data') {
      if (!format) throw new Error(`${filePath}: data chunk before fmt chunk`);
      const dataBytes = Math.min(size, bytes.length - body);
      const seconds = dataBytes / (format.sampleRate * format.channels * (format.bitsPerSample / 8));
      return { ...format, dataBytes, seconds };
    }
    offset = body + size + (size % 2);
  }
  throw new Error(`${filePath} has no ${format ? 'data' : 'fmt'} chunk`);
}

/** Throws unless the file is a 16-bit PCM WAV with audio data (what Chromium's fake capture plays). */
export function assertFakeMicrophoneWav(filePath: string): WavInfo {
  if (!fs.existsSync(filePath)) throw new Error(`fake microphone WAV not found: ${filePath}`);
  const info = readWavInfo(filePath);
  if (info.audioFormat !== 1 || info.bitsPerSample !== 16) {
    throw new Error(
      `fake microphone WAV must be 16-bit PCM (Chromium captures other formats as silence): ${filePath} has format ${info.audioFormat}, ${info.bitsPerSample} bits`,
    );
  }
  if (info.dataBytes === 0) throw new Error(`fake microphone WAV has no samples: ${filePath}`);
  return info;
}
