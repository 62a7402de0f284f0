/** What the recordings' encoder process is told (encoder-process.ts) and answers (encoder-child.ts). */
export type EncoderRequest =
  | { type: 'open'; id: number }
  /** Frames of one recording, channel by channel, each `frames` × 20 ms at RECORDING_RATE. */
  | { type: 'frames'; id: number; frames: number; left: Int16Array; right: Int16Array }
  | { type: 'finish'; id: number };

/** Every answer carries the frames the process has taken so far, all recordings together: how far behind it is. */
export type EncoderReply = { encoded: number } & ({ type: 'page'; id: number; bytes: Uint8Array } | { type: 'finished'; id: number } | { type: 'failed'; id: number; message: string });
