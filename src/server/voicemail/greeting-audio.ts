import { WIDEBAND_RATE } from '../../common/calls';
import { VOICEMAIL_GREETING_MAX_SEC } from '../../common/api/voicemail';
import { float32ToInt16, int16ToFloat32 } from '../../dsp/pcm';
import { StreamingResampler } from '../../dsp/resampler';
import { AppError } from '../http/app-error';
import { decodeOggOpus, OggOpusError } from './ogg-opus-audio';

export const NOT_AUDIO = 'The greeting must be a WAV or Ogg Opus audio file';
export const TOO_LONG = `The greeting is longer than ${VOICEMAIL_GREETING_MAX_SEC} seconds`;

const MIN_WAV_RATE = 8_000;
const MAX_WAV_RATE = 48_000;

/** A WAV file of 16-bit PCM, mono or stereo, at 8–48 kHz: its samples down-mixed to mono, and its rate. */
function readWav(bytes: Buffer): { samples: Int16Array; sampleRate: number } {
  let format: { encoding: number; channels: number; sampleRate: number; bits: number } | null = null;
  // Chunks follow the 12-byte header; recorders add others (LIST, fact) before the data.
  for (let offset = 12; offset + 8 <= bytes.length; ) {
    const id = bytes.toString('ascii', offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ' && body + 16 <= bytes.length) {
      format = { encoding: bytes.readUInt16LE(body), channels: bytes.readUInt16LE(body + 2), sampleRate: bytes.readUInt32LE(body + 4), bits: bytes.readUInt16LE(body + 14) };
    } else if (id === 'data') {
      if (!format || format.encoding !== 1 || format.bits !== 16 || (format.channels !== 1 && format.channels !== 2)) {
        throw AppError.badRequest('The greeting WAV must be 16-bit PCM, mono or stereo', 'greeting');
      }
      if (format.sampleRate < MIN_WAV_RATE || format.sampleRate > MAX_WAV_RATE) {
        throw AppError.badRequest(`The greeting WAV must be sampled at 8 to 48 kHz, not ${format.sampleRate} Hz`, 'greeting');
      }
      const { channels } = format;
      const frames = Math.floor(Math.min(size, bytes.length - body) / (2 * channels));
      const samples = new Int16Array(frames);
      for (let i = 0; i < frames; i += 1) {
        const at = body + i * 2 * channels;
        samples[i] = channels === 1 ? bytes.readInt16LE(at) : (bytes.readInt16LE(at) + bytes.readInt16LE(at + 2)) >> 1;
      }
      return { samples, sampleRate: format.sampleRate };
    }
    offset = body + size + (size & 1);
  }
  throw AppError.badRequest('The greeting WAV has no audio data', 'greeting');
}

function resampled(samples: Int16Array, fromRate: number): Int16Array {
  if (fromRate === WIDEBAND_RATE) return samples;
  const resampler = new StreamingResampler(fromRate, WIDEBAND_RATE);
  const input = int16ToFloat32(samples);
  const output = new Float32Array(resampler.maxOutput(input.length));
  return float32ToInt16(output.subarray(0, resampler.process(input, output)));
}

/**
 * An uploaded greeting as the calls play it: mono 16-bit PCM at 16 kHz. The file's first bytes say
 * what it is (a WAV or an Ogg Opus file), whatever Content-Type it came with. Refuses, with a 400
 * naming the problem, anything else, and a greeting longer than VOICEMAIL_GREETING_MAX_SEC.
 */
export function decodeGreeting(bytes: Buffer): Int16Array {
  let samples: Int16Array;
  if (bytes.length >= 12 && bytes.toString('ascii', 0, 4) === 'RIFF' && bytes.toString('ascii', 8, 12) === 'WAVE') {
    const wav = readWav(bytes);
    // Checked before resampling, so that a long file costs no work.
    if (wav.samples.length > wav.sampleRate * VOICEMAIL_GREETING_MAX_SEC) throw AppError.badRequest(TOO_LONG, 'greeting');
    samples = resampled(wav.samples, wav.sampleRate);
  } else if (bytes.length >= 4 && bytes.toString('ascii', 0, 4) === 'OggS') {
    try {
      samples = decodeOggOpus(bytes);
    } catch (error) {
      if (error instanceof OggOpusError) throw AppError.badRequest(`${NOT_AUDIO}: ${error.message}`, 'greeting');
      throw error;
    }
  } else {
    throw AppError.badRequest(NOT_AUDIO, 'greeting');
  }
  if (samples.length > WIDEBAND_RATE * VOICEMAIL_GREETING_MAX_SEC) throw AppError.badRequest(TOO_LONG, 'greeting');
  if (samples.length === 0) throw AppError.badRequest('The greeting holds no sound', 'greeting');
  return samples;
}
