import { DtlsClient, type DtlsSocket } from 'werift';

/** A DTLS 1.2 record header (RFC 6347 §4.1): type, version, epoch (2 bytes), sequence number (6), length (2). */
const RECORD_HEADER_BYTES = 13;
const TYPE_OFFSET = 0;
const VERSION_OFFSET = 1;
const EPOCH_OFFSET = 3;
const SEQUENCE_OFFSET = 5;
const LENGTH_OFFSET = 11;
/** werift's SessionType: which end's keys a record is sealed with. */
const CLIENT = 1;
const SERVER = 2;

type DatagramSender = Pick<DtlsSocket['transport']['socket'], 'send'>;

/** What an encrypted record's authentication covers besides its body (RFC 5246 §6.2.3.3). */
export interface SealedRecordHeader {
  type: number;
  version: number;
  epoch: number;
  sequenceNumber: number;
}

/**
 * Seals a record of ours again under another sequence number: `body` is the record's encrypted
 * fragment as sent with `header`; the answer is the fragment for `sequenceNumber`, of the same
 * length (AEAD suites only: DTLS-SRTP's are).
 */
export type RecordResealer = (header: SealedRecordHeader, body: Buffer, sequenceNumber: number) => Buffer;

/**
 * Gives every record that a DTLS socket's `transport` sends a sequence number of its own, in
 * sending order, one counter per epoch; encrypted records (epoch 1 on) are sealed again for their
 * new number by `reseal`.
 *
 * werift retransmits a flight as the same bytes, record numbers included, where RFC 6347 §4.2.4
 * wants new ones. A peer drops a record whose number it has seen (its replay window):
 * - when a flight arrives in part (one of its five datagrams lost) and the browser has taken the
 *   ChangeCipherSpec before it could use it, every later copy of it is dropped, and the handshake
 *   never ends (decision 036, about one call in three at 5 % loss);
 * - when the browser's last flight (its ChangeCipherSpec and Finished) is lost, the browser has
 *   already read our Finished, so every copy of it is dropped too: the browser never sees the
 *   retransmission that would make it send its flight again, and the server's side never ends
 *   while the browser's says connected.
 */
export function numberEveryRecord(transport: DatagramSender, reseal: RecordResealer) {
  const send = transport.send.bind(transport);
  const next = new Map<number, number>();
  transport.send = (datagram: Buffer, address?: Parameters<DatagramSender['send']>[1]) => {
    // DTLS records only (RFC 7983: a first byte from 20 to 63); nothing else is touched.
    if (datagram.length === 0 || datagram[0]! < 20 || datagram[0]! > 63) return send(datagram, address);
    // A copy, made when a number changes: werift sends the same buffer again on a retransmission,
    // maybe before the socket is done with it.
    let numbered: Buffer | null = null;
    for (let at = 0; at + RECORD_HEADER_BYTES <= datagram.length; at += RECORD_HEADER_BYTES + datagram.readUInt16BE(at + LENGTH_OFFSET)) {
      const epoch = datagram.readUInt16BE(at + EPOCH_OFFSET);
      const sequenceNumber = next.get(epoch) ?? 0;
      next.set(epoch, sequenceNumber + 1);
      const sentAs = datagram.readUIntBE(at + SEQUENCE_OFFSET, 6);
      if (sentAs === sequenceNumber) continue;
      numbered ??= Buffer.from(datagram);
      if (epoch > 0) {
        const bodyStart = at + RECORD_HEADER_BYTES;
        const body = numbered.subarray(bodyStart, bodyStart + datagram.readUInt16BE(at + LENGTH_OFFSET));
        const header = { type: datagram[at + TYPE_OFFSET]!, version: datagram.readUInt16BE(at + VERSION_OFFSET), epoch, sequenceNumber: sentAs };
        const resealed = reseal(header, body, sequenceNumber);
        if (resealed.length !== body.length) throw new Error(`a record sealed again changed length (${body.length} → ${resealed.length} bytes)`);
        resealed.copy(body);
      }
      numbered.writeUIntBE(sequenceNumber, at + SEQUENCE_OFFSET, 6);
    }
    return send(numbered ?? datagram, address);
  };
}

/** Seals the client's own records again with its negotiated suite: opened with the client's write key, as the server would, then sealed anew. */
function clientResealer(client: DtlsClient): RecordResealer {
  return (header, body, sequenceNumber) => {
    const suite = client.cipher.cipher;
    const plain = suite.decrypt(SERVER, body, header);
    return suite.encrypt(CLIENT, plain, { ...header, sequenceNumber });
  };
}

let installed = false;

/**
 * Makes every werift DTLS client (the server's side of a browser's call audio: it answers the
 * browser's actpass offer as the active side) number its records as RFC 6347 asks. A client sends
 * nothing before connect(), so wrapping its transport there covers every flight.
 */
export function renumberWeriftDtlsRetransmissions() {
  if (installed) return;
  installed = true;
  const connect = DtlsClient.prototype.connect;
  DtlsClient.prototype.connect = function (this: DtlsClient) {
    numberEveryRecord(this.transport.socket, clientResealer(this));
    return connect.call(this);
  };
}
