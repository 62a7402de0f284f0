import type { IncomingMessage } from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { WebSocket, WebSocketServer } from 'ws';
import type { DatabaseHandle } from '../db/client';
import type { Mailer } from '../mail/mailer';
import { paymentOutcomes, type PaymentOutcome } from '../payments/service';
import { CallMetrics } from './call-metrics';
import { MediaMetrics, meteredTransports } from './media-meter';
import { TallyHistogram } from './tally-histogram';

/** The voice changer's time per 20 ms frame, from 10 µs to the whole frame (past which it falls behind). */
const VOICE_ENGINE_BUCKETS = [0.00001, 0.000025, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.02];
const JITTER_BUCKETS = [0.001, 0.002, 0.005, 0.01, 0.02, 0.04, 0.08, 0.16, 0.32];
const QUERY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
const BUS_LAG_BUCKETS = [0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];

/** The signalling socket's path; every other websocket carries a call's audio (a browser's or the provider's). */
const REALTIME_PATH = '/api/v1/realtime';

/**
 * The metrics of one app instance (docs/operations.md#metrics), in a registry of its own: tests
 * build several apps in one process, and prom-client's default registry would mix them. The parts
 * that count are handed to the services that see what they count.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly calls = new CallMetrics(this.registry);
  readonly media: MediaMetrics;
  readonly voiceEngine = new TallyHistogram(VOICE_ENGINE_BUCKETS);
  readonly busLag: Histogram;
  private readonly payments: Counter<'outcome'>;
  private readonly mail: Counter<'outcome'>;
  private readonly websockets: Gauge<'kind'>;
  private listeningTabs: () => number = () => 0;
  private database: DatabaseHandle | null = null;

  constructor() {
    const { registry } = this;
    // Read at each scrape, through arrows: prom-client calls `collect` with the metric as `this`.
    const mediaTotals = () => this.media.totals();
    const listeningTabs = () => this.listeningTabs();
    const pool = () => this.database?.poolConnections();
    const jitter = new Histogram({ name: 'voxline_media_jitter_seconds', help: 'Interarrival jitter of each incoming audio stream, observed once a second', labelNames: ['transport'], buckets: JITTER_BUCKETS, registers: [registry] });
    for (const transport of meteredTransports) jitter.zero({ transport });
    this.media = new MediaMetrics(jitter);
    new Counter({
      name: 'voxline_media_frames_total',
      help: 'Call audio frames of 20 ms received (in) and sent (out), by transport',
      labelNames: ['transport', 'direction'],
      registers: [registry],
      collect() {
        this.reset();
        for (const [transport, tally] of mediaTotals()) {
          this.inc({ transport, direction: 'in' }, tally.framesIn);
          this.inc({ transport, direction: 'out' }, tally.framesOut);
        }
      },
    });
    new Counter({
      name: 'voxline_media_concealed_frames_total',
      help: 'Frames made up by loss concealment in place of lost ones, by transport',
      labelNames: ['transport'],
      registers: [registry],
      collect() {
        this.reset();
        for (const [transport, tally] of mediaTotals()) this.inc({ transport }, tally.concealed);
      },
    });
    this.voiceEngine.register(registry, 'voxline_voice_engine_frame_seconds', "The voice changer's time per 20 ms frame");
    new Gauge({
      name: 'voxline_listening_tabs',
      help: 'Tabs of this instance listening for incoming calls (the Call Receiver)',
      registers: [registry],
      collect() {
        this.set(listeningTabs());
      },
    });
    this.websockets = new Gauge({ name: 'voxline_websocket_connections', help: 'Open websockets of this instance, by kind (realtime signalling, call media)', labelNames: ['kind'], registers: [registry] });
    this.websockets.set({ kind: 'realtime' }, 0);
    this.websockets.set({ kind: 'media' }, 0);
    new Gauge({
      name: 'voxline_db_pool_connections',
      help: 'Connections of the PostgreSQL pool, by state (total, idle, and clients waiting for one); absent on the embedded database',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        const connections = pool();
        if (!connections) return;
        this.set({ state: 'total' }, connections.total);
        this.set({ state: 'idle' }, connections.idle);
        this.set({ state: 'waiting' }, connections.waiting);
      },
    });
    this.busLag = new Histogram({ name: 'voxline_bus_lag_seconds', help: 'Delay of bus messages from another instance (REDIS_URL), from publishing to receipt', buckets: BUS_LAG_BUCKETS, registers: [registry] });
    this.payments = new Counter({ name: 'voxline_payments_total', help: 'Payments by outcome, each counted once', labelNames: ['outcome'], registers: [registry] });
    for (const outcome of paymentOutcomes) this.payments.inc({ outcome }, 0);
    this.mail = new Counter({ name: 'voxline_mail_total', help: 'Mail handed to SMTP or the outbox (sent), or refused (failed)', labelNames: ['outcome'], registers: [registry] });
    this.mail.inc({ outcome: 'sent' }, 0);
    this.mail.inc({ outcome: 'failed' }, 0);
  }

  /** Node's own figures, prefixed voxline_: event-loop delay, GC pauses, heap, CPU. */
  collectProcessMetrics() {
    collectDefaultMetrics({ register: this.registry, prefix: 'voxline_' });
  }

  countListeningTabs(read: () => number) {
    this.listeningTabs = read;
  }

  /** Counts the websockets `server` opens until each closes. */
  countWebsockets(server: WebSocketServer) {
    server.on('connection', (socket: WebSocket, request: IncomingMessage) => {
      const kind = new URL(request.url ?? '/', 'http://localhost').pathname === REALTIME_PATH ? 'realtime' : 'media';
      this.websockets.inc({ kind });
      socket.once('close', () => this.websockets.dec({ kind }));
    });
  }

  /** Times the queries of `database`, and reads its pool at each scrape. */
  watchDatabase(database: DatabaseHandle) {
    this.database = database;
    const queries = new Histogram({ name: 'voxline_db_query_duration_seconds', help: 'Time per database query', buckets: QUERY_BUCKETS, registers: [this.registry] });
    database.timeQueriesWith((seconds) => queries.observe(seconds));
  }

  readonly countPayment = (outcome: PaymentOutcome) => {
    this.payments.inc({ outcome });
  };

  /** `mailer`, counting what it sends and what fails. */
  countMail(mailer: Mailer): Mailer {
    return {
      send: async (message) => {
        try {
          await mailer.send(message);
        } catch (error) {
          this.mail.inc({ outcome: 'failed' });
          throw error;
        }
        this.mail.inc({ outcome: 'sent' });
      },
    };
  }
}
