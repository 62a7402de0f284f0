import type { WebSocket } from 'ws';

/**
 * Reads a binary websocket message as a frame. The copy is needed because a message may start
 * at an odd offset, where no Int16Array can view it; Buffer.allocUnsafe takes it from Node's
 * shared pool, aligned, instead of making an ArrayBuffer per frame.
 */
export function frameFromMessage(data: Buffer): Int16Array {
  const copy = Buffer.allocUnsafe(data.length);
  data.copy(copy);
  return new Int16Array(copy.buffer, copy.byteOffset, copy.length / 2);
}

/** Sends a frame as one binary message; the socket may queue it, so it gets a copy of its own. */
export function sendFrame(socket: WebSocket, frame: Int16Array) {
  const bytes = Buffer.allocUnsafe(frame.byteLength);
  bytes.set(new Uint8Array(frame.buffer, frame.byteOffset, frame.byteLength));
  socket.send(bytes, { binary: true });
}
