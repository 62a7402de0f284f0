import { createHmac, randomBytes } from 'node:crypto';

function attribute(type: number, value: Buffer) {
  const head = Buffer.alloc(4);
  head.writeUInt16BE(type, 0);
  head.writeUInt16BE(value.length, 2);
  return Buffer.concat([head, value, Buffer.alloc((4 - (value.length % 4)) % 4)]);
}

function header(type: number, bodyLength: number) {
  const head = Buffer.alloc(20);
  head.writeUInt16BE(type, 0);
  head.writeUInt16BE(bodyLength, 2);
  head.writeUInt32BE(0x2112a442, 4);
  randomBytes(12).copy(head, 8);
  return head;
}

/**
 * An ICE connectivity check as a browser sends one (RFC 8445 §7.2.2): a STUN binding request with
 * USERNAME, PRIORITY, an attribute the server does not know (Chromium's GOOG-NETWORK-INFO), then,
 * with a password, MESSAGE-INTEGRITY and FINGERPRINT. `type` makes it another kind of STUN message.
 */
export function stunCheck({ username, password, type = 0x0001 }: { username?: string; password?: string; type?: number }): Buffer {
  const body = Buffer.concat([
    ...(username === undefined ? [] : [attribute(0x0006, Buffer.from(username))]),
    attribute(0x0024, Buffer.from([0x6e, 0x7f, 0x1e, 0xff])),
    attribute(0xc057, Buffer.from([0x00, 0x01, 0x00, 0x0a])),
    attribute(0x0025, Buffer.alloc(0)),
  ]);
  if (password === undefined) return Buffer.concat([header(type, body.length), body]);
  const signedHead = header(type, body.length + 24);
  const integrity = createHmac('sha1', password).update(Buffer.concat([signedHead, body])).digest();
  const signed = Buffer.concat([signedHead, body, attribute(0x0008, integrity)]);
  // FINGERPRINT's CRC is not checked by the guard; any four bytes do.
  signed.writeUInt16BE(signed.length - 20 + 8, 2);
  return Buffer.concat([signed, attribute(0x8028, randomBytes(4))]);
}
