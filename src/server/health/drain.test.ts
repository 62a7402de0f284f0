import { describe, expect, it } from 'vitest';
import { waitForCallsToEnd, type DrainTimers } from './drain';

/** Time that moves only when the test says. */
class FakeTimers implements DrainTimers {
  now = 0;
  private timers: { at: number; every: number | null; run: () => void }[] = [];

  after(ms: number, run: () => void) {
    return this.schedule(ms, null, run);
  }

  every(ms: number, run: () => void) {
    return this.schedule(ms, ms, run);
  }

  get pending() {
    return this.timers.length;
  }

  advance(ms: number) {
    const end = this.now + ms;
    for (;;) {
      const next = this.timers.filter((timer) => timer.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!next) break;
      this.now = next.at;
      if (next.every === null) this.timers = this.timers.filter((timer) => timer !== next);
      else next.at += next.every;
      next.run();
    }
    this.now = end;
  }

  private schedule(ms: number, every: number | null, run: () => void) {
    const timer = { at: this.now + ms, every, run };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((other) => other !== timer);
    };
  }
}

/** Whether the promise has settled, and with what, without waiting for it. */
function watch<T>(promise: Promise<T>) {
  const state: { value?: T } = {};
  void promise.then((value) => (state.value = value));
  return state;
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('waitForCallsToEnd', () => {
  it('ends as soon as the last call has ended, well before the limit', async () => {
    const timers = new FakeTimers();
    let calls = 2;
    const drained = watch(waitForCallsToEnd({ callsInProgress: () => calls, limitMs: 900_000, checkEveryMs: 500, timers }));

    timers.advance(60_000);
    calls = 1;
    timers.advance(60_000);
    await flush();
    expect(drained.value).toBeUndefined();

    calls = 0;
    timers.advance(500);
    await flush();
    expect(drained.value).toBe('calls-ended');
    expect(timers.now).toBe(120_500);
    expect(timers.pending, 'the limit and the checks are stopped').toBe(0);
  });

  it('ends at the limit with calls still up', async () => {
    const timers = new FakeTimers();
    const drained = watch(waitForCallsToEnd({ callsInProgress: () => 3, limitMs: 900_000, timers }));

    timers.advance(899_999);
    await flush();
    expect(drained.value).toBeUndefined();
    timers.advance(1);
    await flush();
    expect(drained.value).toBe('limit-reached');
    expect(timers.pending).toBe(0);
  });

  it('counts a last call ending just at the limit as drained', async () => {
    const timers = new FakeTimers();
    let calls = 1;
    const drained = watch(waitForCallsToEnd({ callsInProgress: () => calls, limitMs: 1_200, checkEveryMs: 500, timers }));
    timers.advance(1_100);
    calls = 0;
    timers.advance(100);
    await flush();
    expect(drained.value).toBe('calls-ended');
  });

  it('answers at once with no call in progress, or with a limit of 0 (DRAIN_SECONDS=0)', async () => {
    const timers = new FakeTimers();
    expect(await waitForCallsToEnd({ callsInProgress: () => 0, limitMs: 900_000, timers })).toBe('calls-ended');
    expect(await waitForCallsToEnd({ callsInProgress: () => 0, limitMs: 0, timers })).toBe('calls-ended');
    expect(await waitForCallsToEnd({ callsInProgress: () => 4, limitMs: 0, timers })).toBe('limit-reached');
    expect(timers.pending).toBe(0);
  });
});
