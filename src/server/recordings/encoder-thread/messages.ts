/** What the recordings' encoder thread is told (encoder-thread.ts) and answers (encoder-worker.ts). */
export type EncoderRequest =
  | { type: 'open'; id: number }
  /** Frames of one recording, channel by channel, each `frames` × 20 ms at RECORDING_RATE. */
  | { type: 'frames'; id: number; frames: number; left: Int16Array; right: Int16Array }
  | { type: 'finish'; id: number };

export type EncoderReply = { type: 'page'; id: number; bytes: Uint8Array } | { type: 'finished'; id: number } | { type: 'failed'; id: number; message: string };
