import dgram from 'node:dgram';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { DeliverySchedule } from './delivery-schedule';
import { Impairment, type LinkProfile } from './impairment';
import { derivedSeed } from './seeded-random';

export interface UdpImpairmentRelayOptions {
  /** Clients send here, to any port from firstPort to lastPort. */
  listenAddress: string;
  firstPort: number;
  lastPort: number;
  /** Where each port's datagrams go: the same port there, or `targetPortOffset` further on. */
  targetAddress: string;
  targetPortOffset?: number;
  profile: LinkProfile;
  seed: number;
}

/** What one direction saw; `forwarded` counts every copy sent on, duplicates included. */
export interface DirectionCounters {
  received: number;
  forwarded: number;
  forwardedBytes: number;
  lost: number;
  queueDropped: number;
  duplicated: number;
  /** Datagrams sent on after one of the same flow that arrived later (RFC 4737). */
  reordered: number;
}

/** One direction of one client's flow: numbers its datagrams to tell when jitter reordered them. */
class FlowOrder {
  private nextSequence = 0;
  private highestForwarded = -1;

  take() {
    return this.nextSequence++;
  }

  /** Whether a datagram sent on now was overtaken by a later one of its flow. */
  forwardedLate(sequence: number) {
    const late = sequence < this.highestForwarded;
    this.highestForwarded = Math.max(this.highestForwarded, sequence);
    return late;
  }
}

/** A client seen on one of the relay's ports, and the socket that speaks for it to the target. */
interface Mapping {
  towardsTarget: dgram.Socket;
  upstream: FlowOrder;
  downstream: FlowOrder;
}

function zeroCounters(): DirectionCounters {
  return { received: 0, forwarded: 0, forwardedBytes: 0, lost: 0, queueDropped: 0, duplicated: 0, reordered: 0 };
}

/**
 * A userspace stand-in for netem between a browser and the server's WebRTC ports: each datagram
 * a client sends to one of the relay's ports goes to the target from a socket of that client's
 * own (so the target sees one address per client, as behind a NAT), and what the target answers
 * there goes back to the client from the port the client used. Upstream (client to target) and
 * downstream each suffer the profile, each with its own seeded randomness; a rate cap is shared
 * by all the flows of a direction, as on one access link.
 */
export class UdpImpairmentRelay {
  readonly counters = { upstream: zeroCounters(), downstream: zeroCounters() };
  private readonly upstream: Impairment;
  private readonly downstream: Impairment;
  private readonly schedule = new DeliverySchedule<() => void>((send) => send());
  private readonly listening: dgram.Socket[] = [];
  private readonly mappings = new Map<string, Mapping>();
  private dropsUpstream: ((datagram: Buffer) => boolean) | null = null;

  constructor(private readonly options: UdpImpairmentRelayOptions) {
    this.upstream = new Impairment(options.profile, derivedSeed(options.seed, 0), 'datagrams');
    this.downstream = new Impairment(options.profile, derivedSeed(options.seed, 1), 'datagrams');
  }

  async start() {
    const { listenAddress, firstPort, lastPort } = this.options;
    try {
      for (let port = firstPort; port <= lastPort; port += 1) this.listening.push(await this.listen(listenAddress, port));
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  /** Applies to datagrams from now on; those in flight arrive as planned. */
  setProfile(profile: LinkProfile) {
    this.upstream.use(profile);
    this.downstream.use(profile);
  }

  /**
   * Clients' datagrams that `matches` picks are lost, beside the profile's losses: a path that
   * loses one kind of packet every time (say, a browser's last DTLS flight). Null stops it.
   */
  dropUpstreamWhen(matches: ((datagram: Buffer) => boolean) | null) {
    this.dropsUpstream = matches;
  }

  async stop() {
    this.schedule.clear();
    const sockets = [...this.listening, ...[...this.mappings.values()].map((mapping) => mapping.towardsTarget)];
    this.listening.length = 0;
    this.mappings.clear();
    await Promise.all(sockets.map((socket) => new Promise<void>((resolve) => socket.close(() => resolve()))));
  }

  private async listen(address: string, port: number) {
    const socket = dgram.createSocket(net.isIPv6(address) ? 'udp6' : 'udp4');
    socket.on('message', (datagram, client) => this.fromClient(socket, port, datagram, client));
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(port, address, () => {
        socket.off('error', reject);
        resolve();
      });
    });
    return socket;
  }

  private fromClient(listening: dgram.Socket, port: number, datagram: Buffer, client: dgram.RemoteInfo) {
    const key = `${port} ${client.address} ${client.port}`;
    let mapping = this.mappings.get(key);
    if (!mapping) {
      mapping = this.map(listening, client);
      this.mappings.set(key, mapping);
    }
    const { towardsTarget } = mapping;
    const targetPort = port + (this.options.targetPortOffset ?? 0);
    if (this.dropsUpstream?.(datagram)) {
      this.counters.upstream.received += 1;
      this.counters.upstream.lost += 1;
      return;
    }
    this.pass(this.upstream, this.counters.upstream, mapping.upstream, datagram, () => towardsTarget.send(datagram, targetPort, this.options.targetAddress, ignoreSendError));
  }

  private map(listening: dgram.Socket, client: dgram.RemoteInfo): Mapping {
    const towardsTarget = dgram.createSocket(net.isIPv6(this.options.targetAddress) ? 'udp6' : 'udp4');
    const mapping: Mapping = { towardsTarget, upstream: new FlowOrder(), downstream: new FlowOrder() };
    towardsTarget.on('message', (datagram) => {
      this.pass(this.downstream, this.counters.downstream, mapping.downstream, datagram, () => listening.send(datagram, client.port, client.address, ignoreSendError));
    });
    return mapping;
  }

  private pass(impairment: Impairment, counters: DirectionCounters, order: FlowOrder, datagram: Buffer, send: () => void) {
    counters.received += 1;
    const sequence = order.take();
    const fate = impairment.plan(performance.now(), datagram.length);
    if (fate.kind === 'lost') counters.lost += 1;
    if (fate.kind === 'queue-dropped') counters.queueDropped += 1;
    if (fate.kind !== 'delivered') return;
    counters.duplicated += fate.atMs.length - 1;
    fate.atMs.forEach((atMs, copy) => {
      this.schedule.add(atMs, () => {
        if (copy === 0 && order.forwardedLate(sequence)) counters.reordered += 1;
        counters.forwarded += 1;
        counters.forwardedBytes += datagram.length;
        send();
      });
    });
  }
}

/** A datagram the operating system refuses to send is as good as lost on the way, as on a real link. */
function ignoreSendError() {}
