import { fileURLToPath } from 'node:url';
import { WIDEBAND_RATE, type CallSampleRate } from '../../common/calls';
import { float32ToInt16, int16ToFloat32 } from '../../dsp/pcm';
import { StreamingResampler } from '../../dsp/resampler';
import type { FrameOverlay } from '../media/media-bridge';
import { readMonoPcmWav } from '../media/wav-file';

/** "This call is being recorded.", made once by scripts/generate-recording-notice.sh. */
const NOTICE_FILE = fileURLToPath(new URL('./assets/recording-notice.wav', import.meta.url));

/** The announcement tone: two short beeps at 1,400 Hz, the usual "this call is recorded" signal. */
export const BEEP_HZ = 1_400;
const BEEP_MS = 200;
const BEEP_GAP_MS = 200;
/** Quiet before the spoken notice, so that it does not run into the beeps. */
const NOTICE_GAP_MS = 300;
/** About −12 dBFS: heard over a voice, without clipping when mixed with one. */
const BEEP_AMPLITUDE = 0.25 * 32767;
const RAMP_MS = 5;

const noticeByRate = new Map<CallSampleRate, Int16Array>();
const soundByKey = new Map<string, Int16Array>();

/** The spoken notice at a call's rate, read once and converted once per rate. */
function spokenNotice(sampleRate: CallSampleRate): Int16Array {
  const cached = noticeByRate.get(sampleRate);
  if (cached) return cached;
  const wav = readMonoPcmWav(NOTICE_FILE);
  if (wav.sampleRate !== WIDEBAND_RATE) throw new Error(`${NOTICE_FILE} must be recorded at ${WIDEBAND_RATE} Hz`);
  let notice = wav.samples;
  if (sampleRate !== wav.sampleRate) {
    const resampler = new StreamingResampler(wav.sampleRate, sampleRate);
    const input = int16ToFloat32(wav.samples);
    const output = new Float32Array(resampler.maxOutput(input.length));
    notice = float32ToInt16(output.subarray(0, resampler.process(input, output)));
  }
  noticeByRate.set(sampleRate, notice);
  return notice;
}

/** The whole announcement at `sampleRate`: the two beeps, then the spoken notice when `spoken`. */
export function announcementSound(sampleRate: CallSampleRate, spoken: boolean): Int16Array {
  const key = `${sampleRate}:${spoken}`;
  const cached = soundByKey.get(key);
  if (cached) return cached;
  const perMs = sampleRate / 1000;
  const beep = Math.round(BEEP_MS * perMs);
  const gap = Math.round(BEEP_GAP_MS * perMs);
  const ramp = Math.round(RAMP_MS * perMs);
  const notice = spoken ? spokenNotice(sampleRate) : new Int16Array(0);
  const noticeAt = 2 * beep + gap + (spoken ? Math.round(NOTICE_GAP_MS * perMs) : 0);
  const sound = new Int16Array(noticeAt + notice.length);
  for (const start of [0, beep + gap]) {
    for (let i = 0; i < beep; i += 1) {
      const fade = Math.min(1, i / ramp, (beep - 1 - i) / ramp);
      sound[start + i] = Math.round(BEEP_AMPLITUDE * fade * Math.sin((2 * Math.PI * BEEP_HZ * i) / sampleRate));
    }
  }
  sound.set(notice, noticeAt);
  soundByKey.set(key, sound);
  return sound;
}

/**
 * Plays the announcement once into what the far side hears, mixed over the voice (unlike touch-tones,
 * which replace it) so that nothing said meanwhile is lost. Idle afterwards: frames pass untouched.
 */
export class RecordingAnnouncement implements FrameOverlay {
  private position = 0;
  private out = new Int16Array(0);

  constructor(private readonly sound: Int16Array) {}

  get done(): boolean {
    return this.position >= this.sound.length;
  }

  apply(frame: Int16Array): Int16Array {
    if (this.done) return frame;
    if (this.out.length !== frame.length) this.out = new Int16Array(frame.length);
    const { out, sound } = this;
    for (let i = 0; i < frame.length; i += 1) {
      const extra = this.position < sound.length ? sound[this.position]! : 0;
      this.position += 1;
      out[i] = Math.max(-32768, Math.min(32767, frame[i]! + extra));
    }
    return out;
  }
}
