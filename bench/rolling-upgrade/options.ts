import { parseArgs } from 'node:util';

export interface Options {
  listeners: number;
  calls: number;
  /** The load's length, from the first call placed; longer when the upgrade needs it (README.md). */
  seconds: number;
  minCallSeconds: number;
  maxCallSeconds: number;
  /** When the first SIGTERM is sent, after the first call was placed. */
  upgradeAfter: number;
  /** The instances' DRAIN_SECONDS. */
  drainSeconds: number;
  postgresUrl: string;
  redisUrl: string;
}

const LIMITS = { listeners: 1000, calls: 200, seconds: 600, callSeconds: 300, upgradeAfter: 300, drainSeconds: 900 };

/** The bench's options from its command line (`args`, without node and the script), each checked. */
export function readOptions(args: string[]): Options {
  const { values } = parseArgs({
    args,
    options: {
      listeners: { type: 'string', default: '100' },
      calls: { type: 'string', default: '20' },
      seconds: { type: 'string', default: '120' },
      'call-seconds': { type: 'string', default: '10-30' },
      'upgrade-after': { type: 'string', default: '20' },
      'drain-seconds': { type: 'string', default: '120' },
      'postgres-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
      'redis-url': { type: 'string', default: 'redis://127.0.0.1:6379' },
    },
    strict: true,
  });
  const whole = (name: string, text: string, min: number, max: number) => {
    const value = Number(text);
    if (text.trim() === '' || !Number.isInteger(value) || value < min || value > max) throw new Error(`--${name} must be a whole number from ${min} to ${max} (got "${text}")`);
    return value;
  };
  const loopback = (name: string, text: string) => {
    let host: string;
    try {
      host = new URL(text).hostname;
    } catch {
      throw new Error(`--${name} must be a URL (got "${text}")`);
    }
    if (!['127.0.0.1', 'localhost', '[::1]'].includes(host)) throw new Error(`--${name} must be on this machine (loopback), not ${host}`);
    return text;
  };
  const listeners = whole('listeners', values.listeners, 2, LIMITS.listeners);
  const calls = whole('calls', values.calls, 1, LIMITS.calls);
  // Each call rings a listening tab that is free, and some tabs are always on their way elsewhere.
  if (calls * 2 > listeners) throw new Error(`--calls (${calls}) must be at most half of --listeners (${listeners}): each call rings a free listening tab`);
  const range = /^(\d+)-(\d+)$/.exec(values['call-seconds']);
  if (!range) throw new Error(`--call-seconds must be a range of whole seconds such as 10-30 (got "${values['call-seconds']}")`);
  const minCallSeconds = whole('call-seconds', range[1]!, 1, LIMITS.callSeconds);
  const maxCallSeconds = whole('call-seconds', range[2]!, 1, LIMITS.callSeconds);
  if (minCallSeconds > maxCallSeconds) throw new Error(`--call-seconds must go from the shorter to the longer (got "${values['call-seconds']}")`);
  const drainSeconds = whole('drain-seconds', values['drain-seconds'], 1, LIMITS.drainSeconds);
  if (maxCallSeconds >= drainSeconds) throw new Error(`--drain-seconds (${drainSeconds}) must be longer than the longest call (${maxCallSeconds} s), or the drain ends calls`);
  return {
    listeners,
    calls,
    seconds: whole('seconds', values.seconds, 10, LIMITS.seconds),
    minCallSeconds,
    maxCallSeconds,
    upgradeAfter: whole('upgrade-after', values['upgrade-after'], 0, LIMITS.upgradeAfter),
    drainSeconds,
    postgresUrl: loopback('postgres-url', values['postgres-url']),
    redisUrl: loopback('redis-url', values['redis-url']),
  };
}
