import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { DeliverySchedule } from './delivery-schedule';
import { Impairment, type LinkProfile } from './impairment';
import { derivedSeed } from './seeded-random';

export interface TcpImpairmentProxyOptions {
  /** Port 0 takes any free one; `port` tells which once started. */
  listenAddress: string;
  listenPort: number;
  targetAddress: string;
  targetPort: number;
  profile: LinkProfile;
  seed: number;
  /**
   * Bytes a direction holds (read, not yet passed on) before the proxy stops reading its sender,
   * as a TCP receive window stops a sender; 256 KiB by default.
   */
  windowBytes?: number;
}

/** A full Ethernet frame's TCP payload: the proxy passes data on in segments no larger. */
const MAX_SEGMENT_BYTES = 1448;
const DEFAULT_WINDOW_BYTES = 256 * 1024;

/** One direction of one proxied connection: what it reads from `from` reaches `to` impaired. */
class ImpairedPipe {
  private held = 0;
  private lastAtMs = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly from: net.Socket,
    private readonly to: net.Socket,
    readonly impairment: Impairment,
    private readonly schedule: DeliverySchedule<() => void>,
    private readonly windowBytes: number,
    private readonly counted: { receivedBytes: number; forwardedBytes: number },
  ) {
    from.on('data', (chunk: Buffer) => this.carry(chunk));
    // The far end learns of the close only after all that was sent before it.
    from.on('end', () => this.after(this.lastAtMs, () => to.end()));
  }

  private carry(chunk: Buffer) {
    this.counted.receivedBytes += chunk.length;
    for (let offset = 0; offset < chunk.length; offset += MAX_SEGMENT_BYTES) {
      const segment = chunk.subarray(offset, offset + MAX_SEGMENT_BYTES);
      const fate = this.impairment.plan(performance.now(), segment.length);
      // A stream's impairment delivers everything, once.
      if (fate.kind !== 'delivered') throw new Error(`a stream segment was ${fate.kind}`);
      this.held += segment.length;
      this.after(fate.atMs[0]!, () => this.passOn(segment));
    }
    if (this.held > this.windowBytes) this.from.pause();
  }

  private passOn(segment: Buffer) {
    this.held -= segment.length;
    this.counted.forwardedBytes += segment.length;
    this.to.write(segment);
    if (this.from.isPaused() && this.held <= this.windowBytes / 2) this.from.resume();
  }

  private after(atMs: number, action: () => void) {
    this.lastAtMs = Math.max(this.lastAtMs, atMs, performance.now());
    this.schedule.add(this.lastAtMs, action);
  }
}

interface Connection {
  sockets: net.Socket[];
  pipes: ImpairedPipe[];
  schedule: DeliverySchedule<() => void>;
}

/**
 * A TCP proxy in front of the server, for the browser's HTTP and websocket traffic: each
 * connection it accepts is joined to a new one to the target, and each direction suffers the
 * profile's delay, jitter (order kept), rate cap (each connection its own) and loss, seen as
 * retransmission delays (see Impairment). Each connection has its own seeded randomness.
 */
export class TcpImpairmentProxy {
  readonly counters = { upstream: { receivedBytes: 0, forwardedBytes: 0 }, downstream: { receivedBytes: 0, forwardedBytes: 0 } };
  private readonly server = net.createServer({ allowHalfOpen: true }, (client) => this.join(client));
  private readonly connections = new Set<Connection>();
  private profile: LinkProfile;
  private accepted = 0;

  constructor(private readonly options: TcpImpairmentProxyOptions) {
    this.profile = options.profile;
  }

  get port(): number {
    return (this.server.address() as net.AddressInfo).port;
  }

  async start() {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.options.listenPort, this.options.listenAddress, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
  }

  /** Applies to what is sent from now on, on open connections too; what is in flight arrives as planned. */
  setProfile(profile: LinkProfile) {
    this.profile = profile;
    for (const { pipes } of this.connections) for (const pipe of pipes) pipe.impairment.use(profile);
  }

  async stop() {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const connection of this.connections) this.drop(connection);
    await closed;
  }

  private join(client: net.Socket) {
    const target = net.connect({ host: this.options.targetAddress, port: this.options.targetPort, allowHalfOpen: true });
    const schedule = new DeliverySchedule<() => void>((action) => action());
    const window = this.options.windowBytes ?? DEFAULT_WINDOW_BYTES;
    const index = this.accepted++;
    const impairment = (direction: number) => new Impairment(this.profile, derivedSeed(this.options.seed, 2 * index + direction), 'stream');
    const connection: Connection = {
      sockets: [client, target],
      schedule,
      pipes: [
        new ImpairedPipe(client, target, impairment(0), schedule, window, this.counters.upstream),
        new ImpairedPipe(target, client, impairment(1), schedule, window, this.counters.downstream),
      ],
    };
    this.connections.add(connection);
    for (const socket of connection.sockets) {
      // A reset or a refused connection on one side resets the other, as a proxy that sees it would.
      socket.on('error', () => this.drop(connection));
      socket.on('close', () => {
        if (connection.sockets.every((each) => each.destroyed)) this.connections.delete(connection);
      });
    }
  }

  private drop(connection: Connection) {
    connection.schedule.clear();
    for (const socket of connection.sockets) socket.destroy();
    this.connections.delete(connection);
  }
}
