import { MediaStreamTrack, RTCPeerConnection, RtcpRrPacket, RtcpSrPacket, RtpHeader, RtpPacket, type RtcpPacket } from 'werift';
import { afterEach, describe, expect, it } from 'vitest';
import type { PeerState } from './webrtc-leg';
import { WeriftAudioPeer } from './werift-peer';

/** werift's events driven by hand: nothing here opens a socket. */
const connections: RTCPeerConnection[] = [];

afterEach(async () => {
  await Promise.all(connections.map((connection) => connection.close()));
  connections.length = 0;
});

function adapted() {
  const connection = new RTCPeerConnection({ iceServers: [], iceLite: true });
  connections.push(connection);
  return { connection, peer: new WeriftAudioPeer(connection) };
}

describe('WeriftAudioPeer', () => {
  it('passes on the connection states a leg acts on, and no others', () => {
    const { connection, peer } = adapted();
    const states: PeerState[] = [];
    peer.onState((state) => states.push(state));
    for (const state of ['new', 'connecting', 'connected', 'disconnected', 'failed', 'closed'] as const) connection.connectionStateChange.execute(state);
    expect(states).toEqual(['connected', 'disconnected', 'failed', 'closed']);
  });

  it("passes on the packets of the browser's track, however early werift announces it", () => {
    const { connection, peer } = adapted();
    const track = new MediaStreamTrack({ kind: 'audio', remote: true });
    connection.onTrack.execute(track);
    const packets: [number, number, number[]][] = [];
    peer.onRtp((ssrc, sequenceNumber, payload) => packets.push([ssrc, sequenceNumber, [...payload]]));
    track.onReceiveRtp.execute(new RtpPacket(new RtpHeader({ ssrc: 77, sequenceNumber: 5 }), Buffer.from([1, 2, 3])));
    expect(packets).toEqual([[77, 5, [1, 2, 3]]]);
  });

  it('reads the loss the browser reports about our stream, from sender and receiver reports alike', async () => {
    const { connection, peer } = adapted();
    const transceiver = connection.addTransceiver('audio', { direction: 'recvonly' });
    await peer.attach(transceiver);
    expect(transceiver.direction).toBe('sendrecv');
    const reports: (number | undefined)[] = [];
    peer.onReport((fractionLost) => reports.push(fractionLost));
    const ours = transceiver.sender.ssrc;
    const report = (type: number, ssrc: number, fractionLost: number) => ({ type, ssrc: 9, reports: [{ ssrc, fractionLost }] }) as unknown as RtcpPacket;
    transceiver.receiver.onRtcp.execute(report(RtcpSrPacket.type, ours, 64));
    transceiver.sender.onRtcp.execute(report(RtcpRrPacket.type, ours, 0));
    transceiver.sender.onRtcp.execute(report(RtcpRrPacket.type, ours + 1, 128));
    expect(reports).toEqual([0.25, 0, undefined]);
  });

  it('sends nothing, and throws nothing, before it is attached or once the connection is gone', async () => {
    const { peer } = adapted();
    const packet = { sequenceNumber: 1, timestamp: 960, marker: true, payload: Buffer.from([1]) };
    expect(() => peer.sendRtp(packet)).not.toThrow();
    await peer.close();
    expect(() => peer.sendRtp(packet)).not.toThrow();
  });

  it('closes its connection once, however often it is asked', async () => {
    const { connection, peer } = adapted();
    let closes = 0;
    connection.connectionStateChange.subscribe((state) => void (state === 'closed' && (closes += 1)));
    await Promise.all([peer.close(), peer.close()]);
    await peer.close();
    expect(closes).toBe(1);
    expect(connection.connectionState).toBe('closed');
  });
});
