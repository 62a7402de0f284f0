import { SoundTouch } from 'soundtouchjs';
import { WIDEBAND_RATE } from '../../src/common/calls';
import type { VoiceSettings } from '../../src/common/voice';
import { float32ToInt16, int16ToFloat32 } from '../../src/dsp/pcm';
import { changeRecordedVoice } from '../../src/dsp/voice/recording';
import { VoiceEngine } from '../../src/dsp/voice/voice-engine';

/** What bench/voice runs: processors of 20 ms frames (live) and of whole recordings. */

export interface FrameProcessor {
  process(input: Int16Array, output: Int16Array): void;
}

export interface LiveSubject {
  name: string;
  create(): FrameProcessor;
  /** The output pitch over the input's, for the quality measures; null where it is not one number. */
  pitchRatio: number | null;
  /** The delay the processor says it adds (ms), or null when it says nothing. */
  statedLatencyMs: number | null;
  soundTouch: boolean;
}

export interface RecordingSubject {
  name: string;
  run(recording: Int16Array): Int16Array;
  soundTouch: boolean;
}

export type SoundTouchWindows = { sequenceMs: number; seekWindowMs: number; overlapMs: number } | null;

/** The speech-sized windows: soundtouchjs's automatic ones are tuned for 44.1 kHz music. */
export const SPEECH_WINDOWS: SoundTouchWindows = { sequenceMs: 40, seekWindowMs: 15, overlapMs: 8 };

/** The baseline: only the conversions every processor of Float32 audio needs. */
export class ConversionOnly implements FrameProcessor {
  private readonly floats: Float32Array;

  constructor(frameSize: number) {
    this.floats = new Float32Array(frameSize);
  }

  process(input: Int16Array, output: Int16Array) {
    float32ToInt16(int16ToFloat32(input, this.floats), output);
  }
}

function createSoundTouch(windows: SoundTouchWindows): SoundTouch {
  const soundTouch = new SoundTouch();
  // Its default is 44.1 kHz; 0 asks for its automatic sequence and seek lengths.
  soundTouch.stretch.setParameters(WIDEBAND_RATE, windows?.sequenceMs ?? 0, windows?.seekWindowMs ?? 0, windows?.overlapMs ?? 8);
  return soundTouch;
}

/**
 * soundtouchjs as a live frame processor. It takes stereo only (the mono frame goes in both
 * channels) and gives out what it has, in chunks of its own; a FIFO holding `prefill` samples of
 * silence at the start evens that out into one frame per frame without running dry.
 */
export class SoundTouchFrames implements FrameProcessor {
  private readonly soundTouch: SoundTouch;
  private readonly stereoIn: Float32Array;
  private readonly stereoOut = new Float32Array(2 * 65_536);
  private readonly fifo = new Float32Array(65_536);
  private readonly mask = 65_535;
  private readonly frame: Float32Array;
  private readPosition = 0;
  private writePosition: number;
  /** The deepest the FIFO went below empty: the prefill this stream would have needed. */
  shortfall = 0;

  constructor(frameSize: number, pitch: number, windows: SoundTouchWindows, prefill: number) {
    this.soundTouch = createSoundTouch(windows);
    this.soundTouch.pitch = pitch;
    this.stereoIn = new Float32Array(2 * frameSize);
    this.frame = new Float32Array(frameSize);
    this.writePosition = prefill;
  }

  process(input: Int16Array, output: Int16Array) {
    const { stereoIn, soundTouch, fifo, mask, frame } = this;
    for (let i = 0; i < input.length; i += 1) {
      const value = input[i]! / 32768;
      stereoIn[2 * i] = value;
      stereoIn[2 * i + 1] = value;
    }
    soundTouch.inputBuffer.putSamples(stereoIn, 0, input.length);
    soundTouch.process();
    const ready = soundTouch.outputBuffer.frameCount;
    soundTouch.outputBuffer.receiveSamples(this.stereoOut, ready);
    for (let i = 0; i < ready; i += 1) fifo[(this.writePosition + i) & mask] = this.stereoOut[2 * i]!;
    this.writePosition += ready;
    for (let i = 0; i < frame.length; i += 1) frame[i] = this.readPosition + i < this.writePosition ? fifo[(this.readPosition + i) & mask]! : 0;
    this.readPosition += frame.length;
    this.shortfall = Math.max(this.shortfall, this.readPosition - this.writePosition);
    float32ToInt16(frame, output);
  }
}

/** soundtouchjs on a whole recording: everything in, one process, everything it gives out. */
export function soundTouchRecording(recording: Int16Array, tempo: number, windows: SoundTouchWindows): Int16Array {
  const soundTouch = createSoundTouch(windows);
  soundTouch.tempo = tempo;
  const stereo = new Float32Array(2 * recording.length);
  for (let i = 0; i < recording.length; i += 1) {
    stereo[2 * i] = recording[i]! / 32768;
    stereo[2 * i + 1] = recording[i]! / 32768;
  }
  soundTouch.inputBuffer.putSamples(stereo, 0, recording.length);
  soundTouch.process();
  const ready = soundTouch.outputBuffer.frameCount;
  const out = new Float32Array(2 * ready);
  soundTouch.outputBuffer.receiveSamples(out, ready);
  const mono = new Float32Array(ready);
  for (let i = 0; i < ready; i += 1) mono[i] = out[2 * i]!;
  return float32ToInt16(mono);
}

export function voxlineLive(name: string, settings: VoiceSettings, pitchRatio: number): LiveSubject {
  const probe = new VoiceEngine(WIDEBAND_RATE, settings);
  return {
    name,
    create: () => new VoiceEngine(WIDEBAND_RATE, settings),
    pitchRatio,
    statedLatencyMs: (probe.effectLatencySamples / WIDEBAND_RATE) * 1000,
    soundTouch: false,
  };
}

export function voxlineRecording(name: string, settings: VoiceSettings): RecordingSubject {
  return { name, run: (recording) => changeRecordedVoice(recording, WIDEBAND_RATE, settings), soundTouch: false };
}
