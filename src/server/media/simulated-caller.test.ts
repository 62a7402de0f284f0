import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SimulatedCaller } from './simulated-caller';

describe('SimulatedCaller', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance'] }));
  afterEach(() => vi.useRealTimers());

  // A 30 ms phrase (480 samples at 16 kHz) whose samples count up from 1.
  const phrase = Int16Array.from({ length: 480 }, (_, i) => i + 1);

  function listen(caller: SimulatedCaller) {
    const heard: number[] = [];
    caller.onFrame((frame) => heard.push(...frame));
    return heard;
  }

  it('says nothing until the call is joined, then speaks at real-time pace', () => {
    const caller = new SimulatedCaller(16_000, phrase);
    const heard = listen(caller);
    vi.advanceTimersByTime(1_000);
    expect(heard).toEqual([]);
    caller.connected();
    vi.advanceTimersByTime(40);
    expect(heard).toEqual([...phrase, ...new Array<number>(160).fill(0)]);
  });

  it('pauses 4 s after the phrase, then says it again', () => {
    const caller = new SimulatedCaller(16_000, phrase);
    const heard = listen(caller);
    caller.connected();
    vi.advanceTimersByTime(5_000);
    const cycle = 480 + 4 * 16_000;
    expect(heard).toHaveLength(250 * 320);
    expect(heard.slice(480, cycle).every((sample) => sample === 0)).toBe(true);
    expect(heard.slice(cycle, cycle + 480)).toEqual([...phrase]);
  });

  it('stops speaking when closed', () => {
    const caller = new SimulatedCaller(16_000, phrase);
    const heard = listen(caller);
    caller.connected();
    vi.advanceTimersByTime(200);
    expect(heard).toHaveLength(10 * 320);
    caller.close('hung up');
    vi.advanceTimersByTime(200);
    expect(heard).toHaveLength(10 * 320);
    expect(vi.getTimerCount()).toBe(0);
  });
});
