import { parentPort, workerData } from 'node:worker_threads';
import { frameSamples } from '../../../common/calls';
import { OggOpusWriter } from '../../media/ogg/ogg-opus-writer';
import { RECORDING_BITRATE } from '../recording-encoder';
import { RECORDING_RATE } from '../stereo-frames';
import { runAsBackground } from './background-priority';
import type { EncoderReply, EncoderRequest } from './messages';

/**
 * The recordings' Opus encoding, on a thread of its own (docs/calls.md#recording): each recording's
 * Ogg pages go back to the instance's thread as they are made, a page a second.
 */
const port = parentPort!;
/** Frames encoded so far, shared with the instance's thread, which gives recordings up when this falls too far behind. */
const encoded = (workerData as { encoded: Int32Array }).encoded;
runAsBackground();
const writers = new Map<number, OggOpusWriter>();
const reply = (message: EncoderReply, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

function open(id: number) {
  const sink = (bytes: Buffer) => {
    // A page is its own copy (the writer allocates one a page): its memory moves rather than being copied again.
    const page = new Uint8Array(bytes);
    reply({ type: 'page', id, bytes: page }, [page.buffer as ArrayBuffer]);
  };
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
  reply({ type: 'finished', id: request.id });
}

port.on('message', (request: EncoderRequest) => {
  try {
    handle(request);
  } catch (error) {
    writers.delete(request.id);
    reply({ type: 'failed', id: request.id, message: error instanceof Error ? error.message : String(error) });
  } finally {
    // Frames count as done whatever became of them, or the instance would see a backlog that never clears.
    if (request.type === 'frames') Atomics.add(encoded, 0, request.frames);
  }
});
