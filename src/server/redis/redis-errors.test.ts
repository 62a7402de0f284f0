import { describe, expect, it } from 'vitest';
import { AppError } from '../http/app-error';
import { createRedisClient } from './redis-client';
import { isRedisUnavailable } from './redis-errors';

describe('isRedisUnavailable', () => {
  it('recognises the error of a command sent while Redis cannot be reached', async () => {
    const unreachable = createRedisClient('redis://127.0.0.1:1');
    try {
      const failure = await unreachable.ping().catch((error: unknown) => error);
      expect(isRedisUnavailable(failure)).toBe(true);
    } finally {
      unreachable.disconnect();
    }
  });

  it('recognises a timed-out or closed connection, also as the cause of another error', () => {
    expect(isRedisUnavailable(new Error('Command timed out'))).toBe(true);
    expect(isRedisUnavailable(AppError.unavailable('wrapped', new Error('Connection is closed.')))).toBe(true);
  });

  it('leaves other failures alone, a refused PostgreSQL connection included', () => {
    expect(isRedisUnavailable(new Error('ERR unknown command'))).toBe(false);
    expect(isRedisUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))).toBe(false);
    expect(isRedisUnavailable('Command timed out')).toBe(false);
  });
});
