import { setPriority } from 'node:os';
import { frameSamples } from '../../../common/calls';
import { OggOpusWriter } from '../../media/ogg/ogg-opus-writer';
import { RECORDING_BITRATE } from '../recording-encoder';
import { RECORDING_RATE } from '../stereo-frames';
import type { EncoderReply, EncoderRequest } from './messages';

/**
 * The recordings' Opus encoding, in a process of its own (docs/calls.md#recording): each
 * recording's Ogg pages go back to the instance as they are made, a page a second.
 */

/**
 * A nice value below the calls': a recording may wait a few hundred milliseconds without harm, a
 * live frame may not, so when the machine's cores are all wanted the instance goes first.
 */
const ENCODER_NICE = 10;

const writers = new Map<number, OggOpusWriter>();
/** Frames taken so far, whatever became of them: a frame that failed is not waiting either. */
let encoded = 0;

function reply(message: EncoderReply) {
  process.send!(message);
}

function open(id: number) {
  const sink = (bytes: Buffer) => reply({ type: 'page', id, bytes, encoded });
  writers.set(id, new OggOpusWriter({ channels: 2, sampleRate: RECORDING_RATE, bitrate: RECORDING_BITRATE, sink }));
}

function handle(request: EncoderRequest) {
  if (request.type === 'open') return open(request.id);
  const writer = writers.get(request.id);
  if (!writer) return;
  if (request.type === 'frames') {
    const size = frameSamples(RECORDING_RATE);
    for (let frame = 0; frame < request.frames; frame += 1) {
      writer.writeFrame(request.left.subarray(frame * size, (frame + 1) * size), request.right.subarray(frame * size, (frame + 1) * size));
    }
    return;
  }
  writers.delete(request.id);
  writer.finish();
  reply({ type: 'finished', id: request.id, encoded });
}

try {
  setPriority(ENCODER_NICE);
} catch {
  // Where a process may not lower its own priority, it encodes at the instance's.
}

process.on('message', (request: EncoderRequest) => {
  if (request.type === 'frames') encoded = (encoded + request.frames) | 0;
  try {
    handle(request);
  } catch (error) {
    writers.delete(request.id);
    reply({ type: 'failed', id: request.id, message: error instanceof Error ? error.message : String(error), encoded });
  }
});
// The instance is gone (even killed): what it would have written has nowhere to go.
process.on('disconnect', () => process.exit(0));
