import { describe, expect, it } from 'vitest';
import { Draining } from './draining';
import { checkReadiness, type ReadinessDependencies } from './readiness';

function dependencies(change: Partial<ReadinessDependencies> = {}): ReadinessDependencies {
  return {
    database: { ping: async () => {} },
    draining: new Draining(),
    carriedCalls: () => 0,
    maxCalls: 10,
    log: { warn: () => {} },
    ...change,
  };
}

describe('checkReadiness', () => {
  it('counts a dependency that does not answer in time as unreachable, and logs it', async () => {
    const warnings: string[] = [];
    const readiness = await checkReadiness(
      dependencies({ database: { ping: () => new Promise(() => {}) }, timeoutMs: 10, log: { warn: (_obj, message) => warnings.push(message) } }),
    );
    expect(readiness).toEqual({ ready: false, checks: { database: 'unreachable: no answer within 10 ms', draining: 'ok', calls: 'ok' } });
    expect(warnings).toEqual(['readiness: database unreachable']);
  });

  it('names the error code, not the message, which may name hosts and users', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.1.2.3:6379'), { code: 'ECONNREFUSED' });
    const readiness = await checkReadiness(
      dependencies({
        database: { ping: () => Promise.reject(new Error('password authentication failed for user "voxline"')) },
        redis: { ping: () => Promise.reject(refused) },
      }),
    );
    expect(readiness.checks).toEqual({ database: 'unreachable (the server log says why)', redis: 'unreachable: ECONNREFUSED', draining: 'ok', calls: 'ok' });
  });

  it('is ready below the call capacity only', async () => {
    expect((await checkReadiness(dependencies({ carriedCalls: () => 9 }))).ready).toBe(true);
    expect(await checkReadiness(dependencies({ carriedCalls: () => 11 }))).toEqual({
      ready: false,
      checks: { database: 'ok', draining: 'ok', calls: 'at capacity: 11 of 10 calls' },
    });
  });
});
