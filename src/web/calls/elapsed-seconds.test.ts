import { describe, expect, it, vi } from 'vitest';
import type { Clock } from './call-session-ports';
import { ElapsedSeconds, elapsedSeconds } from './elapsed-seconds';

/** A clock whose one repeating timer is run by hand. */
function manualClock(start: number) {
  const clock = { current: start, tick: null as (() => void) | null, stopped: vi.fn() };
  const port: Clock = {
    now: () => clock.current,
    after: () => () => undefined,
    every: (_ms, run) => {
      clock.tick = run;
      return clock.stopped;
    },
  };
  return { clock, port };
}

describe('elapsedSeconds', () => {
  it('counts whole seconds from the answer, and 0 before it', () => {
    expect(elapsedSeconds(null, 5_000)).toBe(0);
    expect(elapsedSeconds(1_000, 5_999)).toBe(4);
    expect(elapsedSeconds(5_000, 4_000)).toBe(0);
  });
});

describe('ElapsedSeconds', () => {
  it('tells its listeners when the whole seconds change, and reads 0 once stopped', () => {
    const { clock, port } = manualClock(10_000);
    const elapsed = new ElapsedSeconds(port);
    const seen: number[] = [];
    elapsed.subscribe(() => seen.push(elapsed.getSnapshot()));
    elapsed.start(8_000);
    expect(elapsed.getSnapshot()).toBe(2);
    clock.current = 10_500;
    clock.tick!();
    clock.current = 11_000;
    clock.tick!();
    elapsed.stop();
    expect(clock.stopped).toHaveBeenCalledTimes(1);
    expect(seen).toEqual([2, 3, 0]);
  });
});
