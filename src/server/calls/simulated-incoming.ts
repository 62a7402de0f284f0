import { WIDEBAND_RATE } from '../../common/calls';
import type { Database } from '../db/client';
import { SimulatedCaller } from '../media/simulated-caller';
import { rentedNumbersOf } from '../numbers/number-owners';
import type { RealtimeHub } from '../realtime/realtime-hub';
import type { CallService } from './call-service';
import { simulatedCallerPhrase } from './simulated-caller-voice';

/** Real area codes, so that the numbers look like the ones a user would see. */
const AREA_CODES = ['212', '213', '312', '404', '415', '503', '512', '602', '617', '702', '713', '808', '206', '303', '305'];

const digit = (random: () => number, from = 0) => String(from + Math.floor(random() * (10 - from)));

/** A random US-style number, never one of the 555 numbers (the sound-test line lives there). */
export function randomUsNumber(random: () => number): string {
  const area = AREA_CODES[Math.floor(random() * AREA_CODES.length)] ?? '212';
  let exchange = '555';
  while (exchange === '555') exchange = digit(random, 2) + digit(random) + digit(random);
  let line = '';
  for (let i = 0; i < 4; i += 1) line += digit(random);
  return `+1${area}${exchange}${line}`;
}

export interface SimulatedIncomingOptions {
  db: Database;
  hub: RealtimeHub;
  calls: CallService;
  /** The chance of a call at each check, for each user listening with no call (0 turns it off). */
  rate: number;
  pollMs: number;
  random?: () => number;
  log: { warn(obj: object, msg: string): void };
}

/**
 * The virtual carrier's incoming calls (docs/product.md §4, TELEPHONY=local): every few seconds, each user
 * who is listening and has no call ringing or in progress gets a call from a random number with
 * the given chance. The caller speaks a recorded phrase until either side hangs up.
 */
export class SimulatedIncomingCalls {
  private timer: NodeJS.Timeout | undefined;
  private checking = false;
  private readonly random: () => number;

  constructor(private readonly options: SimulatedIncomingOptions) {
    this.random = options.random ?? Math.random;
  }

  start() {
    if (this.options.rate <= 0 || this.timer) return;
    this.timer = setInterval(() => void this.check(), this.options.pollMs);
    this.timer.unref();
  }

  stop() {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private async check() {
    // A slow database must not stack checks on top of each other.
    if (this.checking) return;
    this.checking = true;
    try {
      for (const userId of await this.options.hub.listeningUsers()) {
        if (this.options.calls.hasCallInProgress(userId) || this.random() >= this.options.rate) continue;
        await this.ring(userId);
      }
    } catch (error) {
      this.options.log.warn({ err: error }, 'the virtual carrier could not place a simulated call');
    } finally {
      this.checking = false;
    }
  }

  private async ring(userId: string) {
    const numbers = await rentedNumbersOf(this.options.db, userId);
    const to = numbers[Math.floor(this.random() * numbers.length)];
    if (!to) return;
    const caller = new SimulatedCaller(WIDEBAND_RATE, simulatedCallerPhrase(WIDEBAND_RATE));
    await this.options.calls.ringFromOutside(userId, randomUsNumber(this.random), to, caller);
  }
}
