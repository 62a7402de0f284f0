import { fileURLToPath } from 'node:url';
import { WIDEBAND_RATE, type CallSampleRate } from '../../common/calls';
import { float32ToInt16, int16ToFloat32 } from '../../dsp/pcm';
import { StreamingResampler } from '../../dsp/resampler';
import { readMonoPcmWav } from '../media/wav-file';

/** The phrase the virtual carrier's simulated callers say, made by scripts/generate-simulated-caller.sh. */
const PHRASE_FILE = fileURLToPath(new URL('./assets/simulated-caller.wav', import.meta.url));

const byRate = new Map<CallSampleRate, Int16Array>();

/** The phrase at a call's rate, read once and converted once per rate. */
export function simulatedCallerPhrase(sampleRate: CallSampleRate): Int16Array {
  const cached = byRate.get(sampleRate);
  if (cached) return cached;
  const wav = readMonoPcmWav(PHRASE_FILE);
  if (wav.sampleRate !== WIDEBAND_RATE) throw new Error(`${PHRASE_FILE} must be recorded at ${WIDEBAND_RATE} Hz`);
  let phrase = wav.samples;
  if (sampleRate !== wav.sampleRate) {
    const resampler = new StreamingResampler(wav.sampleRate, sampleRate);
    const input = int16ToFloat32(wav.samples);
    const output = new Float32Array(resampler.maxOutput(input.length));
    phrase = float32ToInt16(output.subarray(0, resampler.process(input, output)));
  }
  byRate.set(sampleRate, phrase);
  return phrase;
}
