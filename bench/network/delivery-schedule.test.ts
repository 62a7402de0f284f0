import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { until } from '../../tests/support/until';
import { DeliverySchedule } from './delivery-schedule';

function collect() {
  const handedOver: { item: number; atMs: number }[] = [];
  const schedule = new DeliverySchedule<number>((item) => handedOver.push({ item, atMs: performance.now() }));
  return { schedule, handedOver };
}

describe('DeliverySchedule', () => {
  it('hands items over in time order, ties in the order added, none early', async () => {
    const { schedule, handedOver } = collect();
    const start = performance.now();
    const offsets = [40, 10, 25, 10, 0, 40, 5];
    offsets.forEach((offset, item) => schedule.add(start + offset, item));
    await until(() => handedOver.length === offsets.length);
    expect(handedOver.map(({ item }) => item)).toEqual([4, 6, 1, 3, 2, 0, 5]);
    for (const { item, atMs } of handedOver) expect(atMs).toBeGreaterThanOrEqual(start + offsets[item]!);
  });

  it('keeps a stream in order even when many items share a millisecond', async () => {
    const { schedule, handedOver } = collect();
    const start = performance.now();
    for (let item = 0; item < 500; item += 1) schedule.add(start + item / 20, item);
    await until(() => handedOver.length === 500);
    expect(handedOver.map(({ item }) => item)).toEqual(Array.from({ length: 500 }, (_, item) => item));
  });

  it('hands nothing over once cleared', async () => {
    const { schedule, handedOver } = collect();
    schedule.add(performance.now() + 10, 1);
    schedule.clear();
    schedule.add(performance.now() + 20, 2);
    await until(() => handedOver.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(handedOver.map(({ item }) => item)).toEqual([2]);
  });
});
