import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { frameSamples, type CallSampleRate } from '../../../common/calls';
import { MAX_OPUS_PACKET_BYTES } from '../../../common/media';
import { opusPacketMs } from './opus-packet';

/** The part of libopus's C API that @evan/opus's WebAssembly build exports, as numbers and pointers. */
interface OpusExports {
  memory: WebAssembly.Memory;
  malloc(bytes: number): number;
  free(pointer: number): void;
  opus_decoder_get_size(channels: number): number;
  opus_decoder_init(decoder: number, sampleRate: number, channels: number): number;
  /** Answers the samples decoded per channel, or a negative error; `data` 0 asks for concealment, `decodeFec` 1 for the in-band FEC of the packet before. */
  opus_decode(decoder: number, data: number, length: number, pcm: number, frameSize: number, decodeFec: number): number;
}

const FRAME_MS = 20;
/** The smallest module using a SIMD instruction (v128.const), which only an engine with SIMD validates. */
const SIMD_PROBE = Uint8Array.of(0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 10, 9, 1, 7, 0, 65, 0, 253, 15, 26, 11);
let shared: OpusExports | null = null;

/**
 * libopus itself, from the WebAssembly files inside the @evan/opus package (nothing fetched or
 * built): its JavaScript wrapper decodes packets only, without the concealment and FEC calls of
 * the same `opus_decode`. One instance serves every decoder of the process.
 */
function libopus(): OpusExports {
  if (shared) return shared;
  // The SIMD build where the engine has WebAssembly SIMD (every Node the app supports), as the package itself chooses.
  const build = WebAssembly.validate(SIMD_PROBE) ? 'simd' : 'opus';
  const wasmPath = createRequire(import.meta.url).resolve(`@evan/opus/wasm/${build}.wasm`);
  const instance = new WebAssembly.Instance(new WebAssembly.Module(readFileSync(wasmPath)), {
    // The build's C library asks for these; a decoder never prints or exits.
    wasi_snapshot_preview1: { fd_seek: () => 0, fd_write: () => 0, fd_close: () => 0, proc_exit: () => {} },
    // Views are made afresh from `memory.buffer` at each call, so growth needs no notice.
    env: { emscripten_notify_memory_growth: () => {} },
  });
  shared = instance.exports as unknown as OpusExports;
  return shared;
}

/**
 * A 20 ms Opus decoder for a stream that loses packets (docs/decisions/040): a lost packet is
 * rebuilt from the in-band FEC the next one carries when the sender put it there, and otherwise
 * concealed by libopus from what it decoded last, as a browser's decoder does. Frames are mono
 * Int16 at `sampleRate`, each lent until the next call. `close` frees its memory.
 */
export class OpusLossDecoder {
  private readonly opus = libopus();
  private readonly samples: number;
  private readonly state: number;
  private readonly packet: number;
  private readonly pcm: number;
  private readonly frame: Int16Array;
  private closed = false;

  constructor(sampleRate: CallSampleRate) {
    this.samples = frameSamples(sampleRate);
    this.frame = new Int16Array(this.samples);
    this.state = this.opus.malloc(this.opus.opus_decoder_get_size(1));
    this.packet = this.opus.malloc(MAX_OPUS_PACKET_BYTES);
    this.pcm = this.opus.malloc(this.samples * Int16Array.BYTES_PER_ELEMENT);
    const status = this.opus.opus_decoder_init(this.state, sampleRate, 1);
    if (status < 0) {
      this.close();
      throw new Error(`libopus could not start a decoder (error ${status})`);
    }
  }

  /** Whether a payload is one 20 ms Opus packet this decoder takes; nothing is decoded. */
  static accepts(packet: Uint8Array): boolean {
    return packet.byteLength > 0 && packet.byteLength <= MAX_OPUS_PACKET_BYTES && opusPacketMs(packet) === FRAME_MS;
  }

  /** The packet's frame, or null when libopus cannot decode it (call `accepts` first). */
  decode(packet: Uint8Array): Int16Array | null {
    return this.run(packet, 0);
  }

  /** The frame before `next`, lost: from `next`'s in-band FEC, or concealed when it carries none. */
  recover(next: Uint8Array): Int16Array {
    return this.run(next, 1) ?? this.conceal();
  }

  /** A frame in place of a lost one, continuing what was decoded. */
  conceal(): Int16Array {
    const frame = this.run(null, 0);
    if (frame) return frame;
    // libopus conceals without failing; should it ever, silence is the safe frame to play.
    this.frame.fill(0);
    return this.frame;
  }

  close() {
    if (this.closed) return;
    this.closed = true;
    for (const pointer of [this.state, this.packet, this.pcm]) if (pointer) this.opus.free(pointer);
  }

  private run(packet: Uint8Array | null, decodeFec: 0 | 1): Int16Array | null {
    if (this.closed) throw new Error('the decoder is closed');
    if (packet) new Uint8Array(this.opus.memory.buffer, this.packet, packet.byteLength).set(packet);
    const decoded = this.opus.opus_decode(this.state, packet ? this.packet : 0, packet?.byteLength ?? 0, this.pcm, this.samples, decodeFec);
    if (decoded !== this.samples) return null;
    this.frame.set(new Int16Array(this.opus.memory.buffer, this.pcm, this.samples));
    return this.frame;
  }
}
