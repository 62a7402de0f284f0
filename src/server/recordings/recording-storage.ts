import { buffer } from 'node:stream/consumers';
import type { CallServiceDependencies } from '../calls/call-service';
import type { AudioSpool } from '../storage/audio-spool';
import type { EncoderProcess } from './encoder-process/encoder-process';
import { oggOpusDurationMs } from '../media/ogg/ogg-duration';
import type { RecordingAdoptionDependencies } from './recording-adoption';
import { RECORDING_CONTENT_TYPE } from './recording-rows';

/** Where the call core writes recordings: the audio spool, in stereo Ogg Opus encoded by `encoder`. */
export function spooledRecordings(spool: AudioSpool, encoder: EncoderProcess): NonNullable<CallServiceDependencies['recording']> {
  return { spool, encoder: (sink, onError) => encoder.encoder(sink, onError) };
}

/**
 * Adopts a recording a stopped instance left in this machine's spool: the spool hands it to the
 * store, then its length is read from the file (its last whole page), wherever it now is.
 */
export function adoptFromSpool(spool: AudioSpool): RecordingAdoptionDependencies['adopt'] {
  return async (key) => {
    const state = await spool.adopt(key, RECORDING_CONTENT_TYPE);
    const stream = state === 'failed' ? null : await spool.read(key);
    const bytes = stream ? await buffer(stream) : Buffer.alloc(0);
    return { state, bytes: bytes.length, durationMs: oggOpusDurationMs(bytes) };
  };
}
