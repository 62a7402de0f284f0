import { describe, expect, it } from 'vitest';
import { numberEveryUnencryptedRecord } from './dtls-record-numbers';

/** One DTLS 1.2 record: type, version 1.2, epoch, 48-bit sequence number, length, body. */
function record(type: number, epoch: number, sequence: number, body: number[]): Buffer {
  const header = Buffer.alloc(13);
  header[0] = type;
  header.writeUInt16BE(0xfefd, 1);
  header.writeUInt16BE(epoch, 3);
  header.writeUIntBE(sequence, 5, 6);
  header.writeUInt16BE(body.length, 11);
  return Buffer.concat([header, Buffer.from(body)]);
}

const sequenceOf = (datagram: Buffer, at = 0) => datagram.readUIntBE(at + 5, 6);

function capture() {
  const sent: Buffer[] = [];
  const transport = { send: (datagram: Buffer) => Promise.resolve(void sent.push(datagram)) };
  numberEveryUnencryptedRecord(transport);
  return { transport, sent };
}

describe('numberEveryUnencryptedRecord', () => {
  it('gives a retransmitted flight new record numbers, as RFC 6347 §4.2.4 asks, so a peer that saw the first copy does not drop it as a replay', async () => {
    const { transport, sent } = capture();
    const flight = [record(22, 0, 3, [11, 0, 0]), record(20, 0, 4, [1]), record(22, 1, 0, [20, 1, 2, 3])];
    for (const datagram of flight) await transport.send(datagram);
    for (const datagram of flight) await transport.send(datagram);
    expect(sent.map((datagram) => sequenceOf(datagram))).toEqual([0, 1, 0, 2, 3, 0]);
    // The encrypted Finished keeps its number (its authentication covers it), byte for byte.
    expect(sent[5]).toBe(flight[2]);
    // werift's own buffers are left as they were: it may hand them to the socket again.
    expect(sequenceOf(flight[0]!)).toBe(3);
  });

  it('numbers each unencrypted record of a datagram that holds several', async () => {
    const { transport, sent } = capture();
    const first = record(22, 0, 9, [1, 2, 3]);
    await transport.send(Buffer.concat([first, record(22, 0, 9, [4]), record(22, 1, 7, [5])]));
    const datagram = sent[0]!;
    expect(sequenceOf(datagram)).toBe(0);
    expect(sequenceOf(datagram, first.length)).toBe(1);
    expect(sequenceOf(datagram, first.length + 14)).toBe(7);
  });
});
