import { describe, expect, it } from 'vitest';
import { readOptions } from './options';

describe('readOptions', () => {
  it('defaults to 100 tabs, 20 calls of 10–30 s, 120 s of load and a drain limit of 120 s', () => {
    expect(readOptions([])).toEqual({
      listeners: 100,
      calls: 20,
      seconds: 120,
      minCallSeconds: 10,
      maxCallSeconds: 30,
      upgradeAfter: 20,
      drainSeconds: 120,
      postgresUrl: 'postgres://postgres@127.0.0.1:5432/postgres',
      redisUrl: 'redis://127.0.0.1:6379',
    });
  });

  it('reads every option', () => {
    const args = ['--listeners', '40', '--calls', '8', '--seconds', '60', '--call-seconds', '5-12', '--upgrade-after', '5', '--drain-seconds', '30', '--redis-url', 'redis://localhost:6380'];
    expect(readOptions(args)).toMatchObject({ listeners: 40, calls: 8, seconds: 60, minCallSeconds: 5, maxCallSeconds: 12, upgradeAfter: 5, drainSeconds: 30, redisUrl: 'redis://localhost:6380' });
  });

  it('names what is wrong with a bad option', () => {
    expect(() => readOptions(['--calls', 'many'])).toThrow('--calls must be a whole number from 1 to 200 (got "many")');
    expect(() => readOptions(['--listeners', '30', '--calls', '20'])).toThrow('--calls (20) must be at most half of --listeners (30)');
    expect(() => readOptions(['--call-seconds', '30'])).toThrow('--call-seconds must be a range of whole seconds such as 10-30 (got "30")');
    expect(() => readOptions(['--call-seconds', '30-10'])).toThrow('--call-seconds must go from the shorter to the longer (got "30-10")');
    expect(() => readOptions(['--drain-seconds', '30'])).toThrow('--drain-seconds (30) must be longer than the longest call (30 s)');
    expect(() => readOptions(['--postgres-url', 'postgres://db.example.com/postgres'])).toThrow('--postgres-url must be on this machine (loopback), not db.example.com');
    expect(() => readOptions(['--redis-url', 'nowhere'])).toThrow('--redis-url must be a URL (got "nowhere")');
    expect(() => readOptions(['--pin'])).toThrow("Unknown option '--pin'");
  });
});
