import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EchoParty } from './echo-party';

const frameOf = (value: number) => new Int16Array(320).fill(value);

function collect(echo: EchoParty) {
  const heard: { value: number; at: number }[] = [];
  echo.onFrame((frame) => heard.push({ value: frame[0]!, at: performance.now() }));
  return heard;
}

describe('EchoParty', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] }));
  afterEach(() => vi.useRealTimers());

  it('plays each frame back at once when it has no delay', () => {
    const echo = new EchoParty(16_000, 0);
    const heard = collect(echo);
    echo.send(frameOf(7));
    expect(heard).toEqual([{ value: 7, at: performance.now() }]);
  });

  it('plays frames back in order after the delay, from copies of its own', () => {
    const echo = new EchoParty(16_000, 300);
    const heard = collect(echo);
    const start = performance.now();
    // One buffer reused for every frame, as the legs do: the echo must not keep it.
    const lent = new Int16Array(320);
    for (let i = 1; i <= 40; i += 1) {
      lent.fill(i);
      echo.send(lent);
      vi.advanceTimersByTime(20);
    }
    vi.advanceTimersByTime(300);
    expect(heard.map((frame) => frame.value)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    heard.forEach((frame, i) => expect(frame.at - start).toBe(300 + i * 20));
  });

  it('plays back whole a burst of a second of frames, as a stalled sender sends when it catches up', () => {
    const echo = new EchoParty(16_000, 100);
    const heard = collect(echo);
    for (let i = 1; i <= 50; i += 1) echo.send(frameOf(i));
    vi.advanceTimersByTime(100);
    expect(heard.map((frame) => frame.value)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });

  it('drops the oldest frames when it falls further behind than its delay and a second, and keeps the newest', () => {
    const echo = new EchoParty(16_000, 100);
    const heard = collect(echo);
    for (let i = 1; i <= 70; i += 1) echo.send(frameOf(i));
    vi.advanceTimersByTime(100);
    expect(heard.map((frame) => frame.value)).toEqual(Array.from({ length: 55 }, (_, i) => i + 16));
  });

  it('plays nothing more once closed', () => {
    const echo = new EchoParty(16_000, 100);
    const heard = collect(echo);
    echo.send(frameOf(1));
    echo.close('hung up');
    echo.send(frameOf(2));
    vi.advanceTimersByTime(500);
    expect(heard).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
