import type { RTCPeerConnection } from 'werift';
import { describe, expect, it } from 'vitest';
import { stunCheck } from '../../../../tests/support/stun-request';
import { guardIce, isSignedCheck } from './ice-guard';

const UFRAG = 'Ab3d';
const PASSWORD = 'a90f6102d7a8a2ed0d8617';
const BROWSER = 'Vq3n';

describe('isSignedCheck', () => {
  it("takes a browser's check signed with our password, FINGERPRINT after it, unknown attributes before", () => {
    expect(isSignedCheck(stunCheck({ username: `${UFRAG}:${BROWSER}`, password: PASSWORD }), UFRAG, PASSWORD)).toBe(true);
  });

  it('refuses a check signed with another password, meant for another ufrag, unsigned or without a username', () => {
    expect(isSignedCheck(stunCheck({ username: `${UFRAG}:${BROWSER}`, password: 'guessed' }), UFRAG, PASSWORD)).toBe(false);
    expect(isSignedCheck(stunCheck({ username: `Zz9y:${BROWSER}`, password: PASSWORD }), UFRAG, PASSWORD)).toBe(false);
    expect(isSignedCheck(stunCheck({ username: `${UFRAG}:${BROWSER}` }), UFRAG, PASSWORD)).toBe(false);
    expect(isSignedCheck(stunCheck({ password: PASSWORD }), UFRAG, PASSWORD)).toBe(false);
  });

  it('refuses a signed check cut short or altered, and a STUN response', () => {
    const check = stunCheck({ username: `${UFRAG}:${BROWSER}`, password: PASSWORD });
    expect(isSignedCheck(check.subarray(0, check.length - 20), UFRAG, PASSWORD)).toBe(false);
    const altered = Buffer.from(check);
    altered[30] = altered[30]! ^ 0xff;
    expect(isSignedCheck(altered, UFRAG, PASSWORD)).toBe(false);
    expect(isSignedCheck(stunCheck({ username: `${UFRAG}:${BROWSER}`, password: PASSWORD, type: 0x0101 }), UFRAG, PASSWORD)).toBe(false);
    expect(isSignedCheck(Buffer.alloc(10), UFRAG, PASSWORD)).toBe(false);
  });
});

/** A stand-in for werift's peer connection: one ICE connection with one socket, recording what reaches werift. */
function guardedConnection() {
  const reached: string[] = [];
  const refused: string[] = [];
  const socket = { datagramReceived: (data: Buffer, address: [string, number]) => void reached.push(`${address[0]}:${address[1]} ${data[0]}`) };
  const connection = { iceTransports: [{ connection: { localUsername: UFRAG, localPassword: PASSWORD, protocols: [socket] } }] };
  guardIce(connection as unknown as RTCPeerConnection, (address) => void refused.push(`${address[0]}:${address[1]}`));
  return { receive: (data: Buffer, address: [string, number]) => socket.datagramReceived(data, address), reached, refused };
}

describe('guardIce', () => {
  it("passes signed checks, and then the browser's DTLS and media from the address that sent them", () => {
    const { receive, reached, refused } = guardedConnection();
    receive(stunCheck({ username: `${UFRAG}:${BROWSER}`, password: PASSWORD }), ['192.0.2.77', 51234]);
    receive(Buffer.from([22, 0xfe, 0xfd]), ['192.0.2.77', 51234]);
    receive(Buffer.from([0x80, 111]), ['192.0.2.77', 51234]);
    expect(reached).toEqual(['192.0.2.77:51234 0', '192.0.2.77:51234 22', '192.0.2.77:51234 128']);
    expect(refused).toEqual([]);
  });

  it('drops unsigned checks, and anything else from an address that never sent a signed one', () => {
    const { receive, reached, refused } = guardedConnection();
    receive(stunCheck({ username: `${UFRAG}:${BROWSER}`, password: PASSWORD }), ['192.0.2.77', 51234]);
    receive(stunCheck({ username: `${UFRAG}:${BROWSER}` }), ['198.51.100.9', 4000]);
    receive(Buffer.from([22, 0xfe, 0xfd]), ['198.51.100.9', 4000]);
    receive(Buffer.from([0x80, 111]), ['192.0.2.77', 51235]);
    expect(reached).toHaveLength(1);
    expect(refused).toEqual(['198.51.100.9:4000', '198.51.100.9:4000', '192.0.2.77:51235']);
  });

  it("lets STUN responses through for werift to match against its own checks", () => {
    const { receive, reached } = guardedConnection();
    receive(stunCheck({ username: `${BROWSER}:${UFRAG}`, password: 'browser-password', type: 0x0101 }), ['192.0.2.77', 51234]);
    expect(reached).toHaveLength(1);
  });

  it('fails loudly when werift no longer has its sockets where the guard reaches for them', () => {
    const moved = { iceTransports: [{ connection: { localUsername: UFRAG, localPassword: PASSWORD } }] };
    expect(() => guardIce(moved as unknown as RTCPeerConnection, () => {})).toThrow(/werift/);
  });
});
