import { DtlsClient, type DtlsSocket } from 'werift';

/** A DTLS 1.2 record header (RFC 6347 §4.1): type, version, epoch (2 bytes), sequence number (6), length (2). */
const RECORD_HEADER_BYTES = 13;
const EPOCH_OFFSET = 3;
const SEQUENCE_OFFSET = 5;
const LENGTH_OFFSET = 11;

type DatagramSender = Pick<DtlsSocket['transport']['socket'], 'send'>;

/**
 * Gives every unencrypted record (epoch 0: the handshake before ChangeCipherSpec, and the
 * ChangeCipherSpec itself) that a DTLS socket's `transport` sends a sequence number of its own, in sending order.
 *
 * werift retransmits a flight as the same bytes, record numbers included, where RFC 6347 §4.2.4
 * wants new ones. A peer drops a record whose number it has seen (its replay window), so when a
 * flight arrives in part (one of its five datagrams lost) and the browser has taken the
 * ChangeCipherSpec before it could use it, every later copy of it is dropped as a replay: the
 * handshake never ends, ICE stays up, and the call is silent with no fallback (issue 18, about one
 * call in three at 5 % loss). Encrypted records (epoch 1, the Finished) keep their numbers, which
 * their authentication covers; a copy of one is only dropped once the peer has read the first.
 */
export function numberEveryUnencryptedRecord(transport: DatagramSender) {
  const send = transport.send.bind(transport);
  let next = 0;
  transport.send = (datagram: Buffer, address?: Parameters<DatagramSender['send']>[1]) => {
    // A copy: werift sends the same buffer again on a retransmission, maybe before the socket is done with it.
    let numbered: Buffer | null = null;
    for (let at = 0; at + RECORD_HEADER_BYTES <= datagram.length; at += RECORD_HEADER_BYTES + datagram.readUInt16BE(at + LENGTH_OFFSET)) {
      if (datagram.readUInt16BE(at + EPOCH_OFFSET) !== 0) continue;
      numbered ??= Buffer.from(datagram);
      numbered.writeUIntBE(next, at + SEQUENCE_OFFSET, 6);
      next += 1;
    }
    return send(numbered ?? datagram, address);
  };
}

let installed = false;

/**
 * Makes every werift DTLS client (the server's side of a browser's call audio: it answers the
 * browser's actpass offer as the active side) number its unencrypted records as RFC 6347 asks.
 * A client sends nothing before connect(), so wrapping its transport there covers every flight.
 */
export function renumberWeriftDtlsRetransmissions() {
  if (installed) return;
  installed = true;
  const connect = DtlsClient.prototype.connect;
  DtlsClient.prototype.connect = function (this: DtlsClient) {
    numberEveryUnencryptedRecord(this.transport.socket);
    return connect.call(this);
  };
}
