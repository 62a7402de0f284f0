import type { Page } from '@playwright/test';

/**
 * Collects the binary frames the page receives on a call's media websocket: what the caller's
 * browser hears, as 16-bit PCM samples, read in the test process.
 */
export function recordReceivedAudio(page: Page) {
  const frames: Int16Array[] = [];
  page.on('websocket', (socket) => {
    if (!/\/api\/v1\/calls\/[^/]+\/media$/.test(new URL(socket.url()).pathname)) return;
    socket.on('framereceived', ({ payload }) => {
      if (typeof payload === 'string') return;
      const frame = new Int16Array(payload.length / 2);
      new Uint8Array(frame.buffer).set(payload);
      frames.push(frame);
    });
  });
  return {
    get count() {
      return frames.length;
    },
    /** Samples (−1…1) of the frames from index `from` on. */
    samples(from = 0, to = frames.length): Float32Array {
      const chosen = frames.slice(from, to);
      const out = new Float32Array(chosen.reduce((n, frame) => n + frame.length, 0));
      let offset = 0;
      for (const frame of chosen) {
        for (let i = 0; i < frame.length; i += 1) out[offset + i] = frame[i]! / 32768;
        offset += frame.length;
      }
      return out;
    },
  };
}
