import { describe, expect, it } from 'vitest';
import { until } from '../../../tests/support/until';
import { LocalBus } from '../bus/local-bus';
import { BusLagProbe } from './bus-lag-probe';

const log = { warn: () => {} };

describe('BusLagProbe', () => {
  it("observes the delay of the other instances' probes, never its own, until stopped", async () => {
    const bus = new LocalBus();
    const heard: Record<string, number[]> = { a: [], b: [] };
    const a = new BusLagProbe(bus, 'instance-a', (seconds) => heard.a!.push(seconds), log, 10);
    const b = new BusLagProbe(bus, 'instance-b', (seconds) => heard.b!.push(seconds), log, 10);
    await a.start();
    await b.start();
    await until(() => heard.a!.length >= 3 && heard.b!.length >= 3);
    // The local bus delivers in the publisher's own turn: no lag, and never a negative one.
    expect([...heard.a!, ...heard.b!].every((seconds) => seconds >= 0 && seconds < 0.1)).toBe(true);
    await a.stop();
    const heardByA = heard.a!.length;
    let sentByB = 0;
    await bus.subscribe('metrics:bus-lag', () => (sentByB += 1));
    await until(() => sentByB >= 3);
    expect(heard.a).toHaveLength(heardByA);
    await b.stop();
  });

  it('reads a probe sent by a machine whose clock is ahead as no lag rather than a negative one', async () => {
    const bus = new LocalBus();
    const heard: number[] = [];
    const probe = new BusLagProbe(bus, 'here', (seconds) => heard.push(seconds), log, 60_000);
    await probe.start();
    await bus.publish('metrics:bus-lag', JSON.stringify({ origin: 'elsewhere', sentAt: Date.now() + 5_000 }));
    await bus.publish('metrics:bus-lag', JSON.stringify({ origin: 'elsewhere', sentAt: Date.now() - 250 }));
    expect(heard[0]).toBe(0);
    expect(heard[1]).toBeGreaterThanOrEqual(0.25);
    await probe.stop();
  });
});
