import { createHmac, timingSafeEqual } from 'node:crypto';
import type { RTCPeerConnection } from 'werift';

const HEADER_BYTES = 20;
const MAGIC_COOKIE = 0x2112a442;
const USERNAME = 0x0006;
const MESSAGE_INTEGRITY = 0x0008;
const INTEGRITY_BYTES = 20;

/** A STUN message (RFC 5389 §6): two zero bits, then the magic cookie at byte 4. */
const isStun = (data: Buffer) => data.length >= HEADER_BYTES && (data[0]! & 0xc0) === 0 && data.readUInt32BE(4) === MAGIC_COOKIE;
/** A STUN request: both class bits of its type clear. */
const isStunRequest = (data: Buffer) => isStun(data) && (data.readUInt16BE(0) & 0x0110) === 0;

/**
 * Whether a STUN request is a check meant for us (RFC 8445 §7.3): its USERNAME begins with our
 * ufrag, and its MESSAGE-INTEGRITY is the HMAC-SHA1, keyed with our ICE password, of the message
 * before it, the header's length counting up to the end of that attribute (RFC 5389 §15.4).
 */
export function isSignedCheck(data: Buffer, ufrag: string, password: string): boolean {
  if (!isStunRequest(data)) return false;
  const end = Math.min(data.length, HEADER_BYTES + data.readUInt16BE(2));
  let username: string | undefined;
  for (let at = HEADER_BYTES; at + 4 <= end; ) {
    const type = data.readUInt16BE(at);
    const length = data.readUInt16BE(at + 2);
    const value = at + 4;
    if (value + length > end) return false;
    if (type === USERNAME) username = data.toString('utf8', value, value + length);
    if (type === MESSAGE_INTEGRITY) {
      if (length !== INTEGRITY_BYTES || !username?.startsWith(`${ufrag}:`)) return false;
      const signed = Buffer.from(data.subarray(0, at));
      signed.writeUInt16BE(at + 4 + INTEGRITY_BYTES - HEADER_BYTES, 2);
      const expected = createHmac('sha1', password).update(signed).digest();
      return timingSafeEqual(expected, data.subarray(value, value + INTEGRITY_BYTES));
    }
    at = value + length + ((4 - (length % 4)) % 4);
  }
  return false;
}

type Address = [string, number];

/** What the guard reaches inside werift 0.24: each ICE connection's UDP sockets and its credentials. */
interface IceInternals {
  localUsername: string;
  localPassword: string;
  protocols?: { datagramReceived?: (data: Buffer, address: Address) => void }[];
}

/**
 * Keeps strangers out of a peer connection's UDP ports. werift answers any STUN request, signed or
 * not, and answers it with checks of its own to the sender: one unsigned 32-byte request brings a
 * response and a run of retransmitted checks to an address a stranger can forge, and a pair of
 * candidates kept for it. And it hands every other datagram to DTLS, whoever sent it. So, before
 * werift sees them: a request not signed with this connection's password is dropped, and other
 * datagrams are taken only from addresses that have sent a signed one (the browser checks every
 * path it uses, and renews consent on it every few seconds, RFC 7675). Installed after gathering,
 * when the sockets exist and before the answer leaves, so before the browser can use them.
 */
export function guardIce(connection: RTCPeerConnection, onRefused: (address: Address) => void) {
  const trusted = new Set<string>();
  for (const transport of connection.iceTransports) {
    const ice = transport.connection as unknown as IceInternals;
    if (!ice.protocols?.length || !ice.protocols.every((protocol) => typeof protocol.datagramReceived === 'function')) {
      throw new Error('werift no longer exposes its ICE sockets where the guard expects them');
    }
    for (const protocol of ice.protocols) {
      const receive = protocol.datagramReceived!.bind(protocol);
      protocol.datagramReceived = (data, address) => {
        const key = `${address[0]} ${address[1]}`;
        if (isStunRequest(data)) {
          if (!isSignedCheck(data, ice.localUsername, ice.localPassword)) return onRefused(address);
          trusted.add(key);
        } else if (!isStun(data) && !trusted.has(key)) return onRefused(address);
        receive(data, address);
      };
    }
  }
}
