import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { numberEveryRecord, type RecordResealer, type SealedRecordHeader } from './dtls-record-numbers';

const VERSION_1_2 = 0xfefd;
const HANDSHAKE = 22;
const CHANGE_CIPHER_SPEC = 20;

/** One DTLS 1.2 record: type, version 1.2, epoch, 48-bit sequence number, length, body. */
function record(type: number, epoch: number, sequence: number, body: Buffer | number[]): Buffer {
  const header = Buffer.alloc(13);
  header[0] = type;
  header.writeUInt16BE(VERSION_1_2, 1);
  header.writeUInt16BE(epoch, 3);
  header.writeUIntBE(sequence, 5, 6);
  header.writeUInt16BE(body.length, 11);
  return Buffer.concat([header, Buffer.from(body)]);
}

const sequenceOf = (datagram: Buffer, at = 0) => datagram.readUIntBE(at + 5, 6);

/**
 * AES-128-GCM as DTLS 1.2 seals a record (RFC 5288, RFC 6347 §4.1.2.1), written here apart from
 * werift's: a 4-byte salt and an 8-byte explicit nonce (the epoch and sequence number) before the
 * ciphertext, the tag after; the additional data is epoch, sequence number, type, version, length.
 */
const key = crypto.randomBytes(16);
const salt = crypto.randomBytes(4);

function additionalData({ type, version, epoch, sequenceNumber }: SealedRecordHeader, length: number) {
  const data = Buffer.alloc(13);
  data.writeUInt16BE(epoch, 0);
  data.writeUIntBE(sequenceNumber, 2, 6);
  data[8] = type;
  data.writeUInt16BE(version, 9);
  data.writeUInt16BE(length, 11);
  return data;
}

function seal(header: SealedRecordHeader, plain: Buffer): Buffer {
  const explicit = Buffer.alloc(8);
  explicit.writeUInt16BE(header.epoch, 0);
  explicit.writeUIntBE(header.sequenceNumber, 2, 6);
  const cipher = crypto.createCipheriv('aes-128-gcm', key, Buffer.concat([salt, explicit]));
  cipher.setAAD(additionalData(header, plain.length));
  const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([explicit, sealed, cipher.getAuthTag()]);
}

function open(header: SealedRecordHeader, body: Buffer): Buffer {
  const decipher = crypto.createDecipheriv('aes-128-gcm', key, Buffer.concat([salt, body.subarray(0, 8)]));
  const ciphertext = body.subarray(8, body.length - 16);
  decipher.setAAD(additionalData(header, ciphertext.length));
  decipher.setAuthTag(body.subarray(body.length - 16));
  return Buffer.concat([decipher.update(ciphertext), decipher.final()]);
}

const reseal: RecordResealer = (header, body, sequenceNumber) => seal({ ...header, sequenceNumber }, open(header, body));

function capture() {
  const sent: Buffer[] = [];
  const transport = { send: (datagram: Buffer) => Promise.resolve(void sent.push(datagram)) };
  numberEveryRecord(transport, reseal);
  return { transport, sent };
}

/** The record at `at` of a datagram as the peer reads it: its header, and its body opened when sealed. */
function read(datagram: Buffer, at = 0) {
  const header = { type: datagram[at]!, version: datagram.readUInt16BE(at + 1), epoch: datagram.readUInt16BE(at + 3), sequenceNumber: sequenceOf(datagram, at) };
  const body = datagram.subarray(at + 13, at + 13 + datagram.readUInt16BE(at + 11));
  return { ...header, body: header.epoch > 0 ? open(header, body) : body };
}

describe('numberEveryRecord', () => {
  it('gives a retransmitted flight new record numbers, as RFC 6347 §4.2.4 asks, so a peer that saw the first copy does not drop it as a replay', async () => {
    const { transport, sent } = capture();
    const finished = Buffer.from([20, 0, 0, 12, 0, 4, 0, 0, 0, 0, 0, 12, ...crypto.randomBytes(12)]);
    const flight = [record(HANDSHAKE, 0, 3, [11, 0, 0]), record(CHANGE_CIPHER_SPEC, 0, 4, [1]), record(HANDSHAKE, 1, 5, seal({ type: HANDSHAKE, version: VERSION_1_2, epoch: 1, sequenceNumber: 5 }, finished))];
    for (const datagram of flight) await transport.send(datagram);
    for (const datagram of flight) await transport.send(datagram);
    expect(sent.map((datagram) => sequenceOf(datagram))).toEqual([0, 1, 0, 2, 3, 1]);
    // The encrypted Finished is sealed anew for each number: the peer opens every copy.
    expect(read(sent[2]!)).toMatchObject({ epoch: 1, sequenceNumber: 0, body: finished });
    expect(read(sent[5]!)).toMatchObject({ epoch: 1, sequenceNumber: 1, body: finished });
    expect(sent[5]!.subarray(13)).not.toEqual(sent[2]!.subarray(13));
    // werift's own buffers are left as they were: it may hand them to the socket again.
    expect(sequenceOf(flight[0]!)).toBe(3);
    expect(read(flight[2]!)).toMatchObject({ sequenceNumber: 5, body: finished });
  });

  it('numbers each record of a datagram that holds several, each epoch on its own count', async () => {
    const { transport, sent } = capture();
    const first = record(HANDSHAKE, 0, 9, [1, 2, 3]);
    const second = record(HANDSHAKE, 0, 9, [4]);
    const alert = Buffer.from([1, 0]);
    await transport.send(Buffer.concat([first, second, record(21, 1, 7, seal({ type: 21, version: VERSION_1_2, epoch: 1, sequenceNumber: 7 }, alert))]));
    const datagram = sent[0]!;
    expect(sequenceOf(datagram)).toBe(0);
    expect(sequenceOf(datagram, first.length)).toBe(1);
    expect(read(datagram, first.length + second.length)).toMatchObject({ type: 21, epoch: 1, sequenceNumber: 0, body: alert });
  });

  it('sends what is not DTLS (SRTP, STUN) as it is, and a record already at its number untouched', async () => {
    const { transport, sent } = capture();
    const rtp = Buffer.from([0x80, 111, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 9, 9]);
    await transport.send(rtp);
    const inOrder = record(HANDSHAKE, 0, 0, [1]);
    await transport.send(inOrder);
    expect(sent[0]).toBe(rtp);
    expect(sent[1]).toBe(inOrder);
  });
});
