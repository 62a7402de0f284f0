import { OggOpusWriter } from '../media/ogg/ogg-opus-writer';
import type { StereoEncoder } from './recording-file';
import { RECORDING_RATE } from './stereo-frames';

/**
 * Both channels together: 24 kbit/s is about 190 kB a minute with the Ogg pages, under the 250 kB
 * a minute of issue 19, and clear speech for two voices at 16 kHz.
 */
export const RECORDING_BITRATE = 24_000;

/**
 * A recording's encoder on the caller's own thread: two channels of Ogg Opus at RECORDING_RATE, a
 * page a second into `sink`. The instance encodes in a process of its own (encoder-process/); this one
 * is for what runs a recording or two.
 */
export function recordingEncoder(sink: (bytes: Uint8Array) => void): StereoEncoder {
  return new OggOpusWriter({ channels: 2, sampleRate: RECORDING_RATE, bitrate: RECORDING_BITRATE, sink });
}
