import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { callDirections, callOutcomes, type CallDirection, type CallOutcome } from '../../common/calls';

/** What the call metrics read of a call this instance carries (LiveCall, calls/live-calls.ts). */
interface CarriedCall {
  /** The Voxline user who placed it; null when it came from outside Voxline. */
  userId: string | null;
  placedAt: Date;
  answeredAt: Date | null;
}

/** The calls an instance carries, and the moments they are answered and start ending (LiveCalls). */
interface CallsCarried {
  all(): readonly CarriedCall[];
  onAnswered(hook: (call: CarriedCall) => void): void;
  onEnding(hook: (call: CarriedCall, outcome: CallOutcome) => void): void;
}

const callStates = ['ringing', 'answered'] as const;

/**
 * A call carried here is outbound when a Voxline user placed it (a call between two users
 * included, whose callee's record is inbound), inbound when it came from the phone network.
 */
const directionOf = (call: CarriedCall): CallDirection => (call.userId ? 'outbound' : 'inbound');

const secondsBetween = (from: Date, to: Date) => Math.max(0, to.getTime() - from.getTime()) / 1000;

/** voxline_calls_*: the calls an instance carries now, how long they took to answer and lasted, and how they ended. */
export class CallMetrics {
  private carried: () => readonly CarriedCall[] = () => [];
  private readonly ended: Counter<'direction' | 'status'>;
  private readonly setup: Histogram<'direction'>;
  private readonly duration: Histogram<'direction'>;

  constructor(registry: Registry) {
    const carried = () => this.carried();
    new Gauge({
      name: 'voxline_calls_active',
      help: 'Calls this instance carries now, by direction and state (ringing until answered)',
      labelNames: ['direction', 'state'],
      registers: [registry],
      collect() {
        const counts = new Map(callDirections.flatMap((direction) => callStates.map((state) => [`${direction} ${state}`, 0])));
        for (const call of carried()) {
          const key = `${directionOf(call)} ${call.answeredAt ? 'answered' : 'ringing'}`;
          counts.set(key, counts.get(key)! + 1);
        }
        for (const direction of callDirections) for (const state of callStates) this.set({ direction, state }, counts.get(`${direction} ${state}`)!);
      },
    });
    this.ended = new Counter({ name: 'voxline_calls_ended_total', help: 'Calls ended on this instance, by direction and final status', labelNames: ['direction', 'status'], registers: [registry] });
    for (const direction of callDirections) for (const status of callOutcomes) this.ended.inc({ direction, status }, 0);
    this.setup = new Histogram({
      name: 'voxline_call_setup_seconds',
      help: 'Time from placing a call to its answer',
      labelNames: ['direction'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60],
      registers: [registry],
    });
    this.duration = new Histogram({
      name: 'voxline_call_duration_seconds',
      help: 'Time from the answer of a call to its end',
      labelNames: ['direction'],
      buckets: [5, 15, 30, 60, 120, 300, 600, 1200, 1800, 3600, 7200],
      registers: [registry],
    });
    for (const direction of callDirections) {
      this.setup.zero({ direction });
      this.duration.zero({ direction });
    }
  }

  /** Follows the calls of `live`: counted at each scrape, timed as they are answered and end. */
  watch(live: CallsCarried) {
    this.carried = () => live.all();
    live.onAnswered((call) => {
      if (call.answeredAt) this.setup.observe({ direction: directionOf(call) }, secondsBetween(call.placedAt, call.answeredAt));
    });
    live.onEnding((call, outcome) => {
      const direction = directionOf(call);
      this.ended.inc({ direction, status: outcome });
      if (call.answeredAt) this.duration.observe({ direction }, secondsBetween(call.answeredAt, new Date()));
    });
  }
}
