import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../../tests/support/free-port';
import { until } from '../../../tests/support/until';
import { createRedisClient, logRedisConnection } from './redis-client';

function recordingLog() {
  const lines: { level: string; obj: object; msg: string }[] = [];
  return {
    lines,
    warn: (obj: object, msg: string) => lines.push({ level: 'warn', obj, msg }),
    info: (obj: object, msg: string) => lines.push({ level: 'info', obj, msg }),
  };
}

describe('logRedisConnection', () => {
  it('logs the first failure of each outage and the reconnection that ends it, not every retry', () => {
    const client = new EventEmitter();
    const log = recordingLog();
    logRedisConnection(client, log, 'bus subscriber');
    const refused = new Error('connect ECONNREFUSED 127.0.0.1:6379');
    client.emit('ready');
    client.emit('error', refused);
    client.emit('error', refused);
    client.emit('ready');
    client.emit('error', refused);
    expect(log.lines).toEqual([
      { level: 'warn', obj: { err: refused, connection: 'bus subscriber' }, msg: 'Redis unreachable; reconnecting until it answers' },
      { level: 'info', obj: { connection: 'bus subscriber' }, msg: 'Redis reachable again' },
      { level: 'warn', obj: { err: refused, connection: 'bus subscriber' }, msg: 'Redis unreachable; reconnecting until it answers' },
    ]);
  });
});

describe('createRedisClient', () => {
  it('logs that Redis cannot be reached, once', async () => {
    const log = recordingLog();
    // Nothing listens on a port just found free.
    const unreachable = createRedisClient(`redis://127.0.0.1:${await freePort()}`, log);
    try {
      await unreachable.ping().catch(() => undefined);
      await until(() => log.lines.length > 0);
      expect(log.lines).toEqual([{ level: 'warn', obj: { err: expect.any(Error), connection: 'shared state' }, msg: 'Redis unreachable; reconnecting until it answers' }]);
    } finally {
      unreachable.disconnect();
    }
  });
});
