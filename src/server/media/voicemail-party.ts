import { FRAME_MS, frameSamples, WIDEBAND_RATE } from '../../common/calls';
import { BaseLeg } from './leg';

/** The tone that tells the caller to speak, and the one that says the message is taken. */
export const VOICEMAIL_BEEP = { hz: 1_000, ms: 400 };
export const VOICEMAIL_GOODBYE = { hz: 600, ms: 300 };
/** About −10 dBFS, as the touch-tones: clear without clipping after the caller's gain. */
const TONE_AMPLITUDE = 10_000;
/** Quiet between the greeting and the beep, so that the beep stands apart from the last word. */
const GAP_MS = 200;

export interface VoicemailPartyOptions {
  /** The owner's greeting, mono at 16 kHz. */
  greeting: Int16Array;
  /** How long the caller may speak once the beep has played. */
  maxMessageMs: number;
  /** Takes each frame the caller says after the beep; lent until it returns. */
  record(frame: Int16Array): void;
}

function tone(hz: number, ms: number): Int16Array {
  const samples = new Int16Array((WIDEBAND_RATE * ms) / 1000);
  // A 5 ms ramp at each end keeps the tone from clicking.
  const ramp = WIDEBAND_RATE / 200;
  for (let i = 0; i < samples.length; i += 1) {
    const edge = Math.min(1, i / ramp, (samples.length - 1 - i) / ramp);
    samples[i] = Math.round(TONE_AMPLITUDE * edge * Math.sin((2 * Math.PI * hz * i) / WIDEBAND_RATE));
  }
  return samples;
}

function joined(...parts: Int16Array[]): Int16Array {
  const all = new Int16Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  return all;
}

/**
 * The built-in party that answers a call nobody else took (docs/calls.md#voicemail): once joined it
 * plays the owner's greeting and a beep at real-time pace, then hands what the caller says to
 * `record` for up to `maxMessageMs`, then plays a short tone and closes, which ends the call. The
 * caller hanging up closes it too. Works at 16 kHz: the bridge converts a narrowband caller.
 */
export class VoicemailParty extends BaseLeg {
  readonly kind = 'voicemail' as const;
  readonly sampleRate = WIDEBAND_RATE;
  private readonly frame = new Int16Array(frameSamples(WIDEBAND_RATE));
  private readonly goodbye = tone(VOICEMAIL_GOODBYE.hz, VOICEMAIL_GOODBYE.ms);
  private playing: Int16Array;
  private timer: NodeJS.Timeout | undefined;
  private limit: NodeJS.Timeout | undefined;
  private startedAt = 0;
  private framesSent = 0;
  private recording = false;

  constructor(private readonly options: VoicemailPartyOptions) {
    super();
    this.playing = joined(options.greeting, new Int16Array((WIDEBAND_RATE * GAP_MS) / 1000), tone(VOICEMAIL_BEEP.hz, VOICEMAIL_BEEP.ms));
  }

  /** Whether the beep has played and the caller's words are being taken. */
  get isRecording() {
    return this.recording;
  }

  connected() {
    if (this.timer || this.isClosed) return;
    this.play(this.playing, () => this.startRecording());
  }

  send(frame: Int16Array) {
    if (this.recording && !this.isClosed) this.options.record(frame);
  }

  private startRecording() {
    this.recording = true;
    this.limit = setTimeout(() => {
      this.recording = false;
      this.play(this.goodbye, () => this.close('The message is recorded'));
    }, this.options.maxMessageMs);
  }

  /** Plays `sound` at real-time pace (a late timer catches up), then runs `then`. */
  private play(sound: Int16Array, then: () => void) {
    clearInterval(this.timer);
    this.playing = sound;
    this.startedAt = performance.now();
    this.framesSent = 0;
    const total = Math.ceil(sound.length / this.frame.length);
    this.timer = setInterval(() => {
      const due = Math.min(total, Math.floor((performance.now() - this.startedAt) / FRAME_MS));
      while (this.framesSent < due && !this.isClosed) {
        this.frame.fill(0);
        this.frame.set(this.playing.subarray(this.framesSent * this.frame.length, (this.framesSent + 1) * this.frame.length));
        this.framesSent += 1;
        this.emitFrame(this.frame);
      }
      if (this.framesSent >= total && !this.isClosed) {
        clearInterval(this.timer);
        then();
      }
    }, FRAME_MS);
  }

  protected release() {
    this.recording = false;
    clearInterval(this.timer);
    clearTimeout(this.limit);
    this.timer = undefined;
    this.limit = undefined;
  }
}
