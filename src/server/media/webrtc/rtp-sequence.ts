/** The longest run of lost packets the receiver conceals; after a longer one it starts afresh. */
const MAX_CONCEALED_PACKETS = 5;
/**
 * A packet this far behind the newest is not late: the sender has started numbering again (RTP
 * sequence numbers are 16 bits and start anywhere). 500 packets is 10 s of 20 ms audio, far later
 * than any packet the network still delivers.
 */
const RESTART_DISTANCE = 500;

/** Where a packet falls in its stream: played in order, or dropped. */
export type Arrival = { kind: 'late' } | { kind: 'in-order'; missing: number } | { kind: 'resync' };

/**
 * Follows one RTP stream's sequence numbers, which wrap at 65536. A packet older than the newest
 * one played is late (or a duplicate) and dropped: its moment has been played already, and the
 * next hop's jitter buffer keeps time. A short gap before a packet is what the receiver conceals.
 */
export class RtpSequence {
  private newest: number | null = null;

  /** Where `sequenceNumber` would fall; nothing changes until `accept`. */
  place(sequenceNumber: number): Arrival {
    if (this.newest === null) return { kind: 'in-order', missing: 0 };
    // The distance forward from the newest, as a signed 16-bit number.
    const distance = ((((sequenceNumber - this.newest) & 0xffff) + 0x8000) & 0xffff) - 0x8000;
    if (distance <= 0 && distance > -RESTART_DISTANCE) return { kind: 'late' };
    if (distance > 0 && distance <= MAX_CONCEALED_PACKETS + 1) return { kind: 'in-order', missing: distance - 1 };
    return { kind: 'resync' };
  }

  accept(sequenceNumber: number) {
    this.newest = sequenceNumber;
  }

  /** A new stream (another SSRC): whatever number comes next starts it. */
  reset() {
    this.newest = null;
  }
}
