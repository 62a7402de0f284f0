import { describe, expect, it } from 'vitest';
import { drainingRetryMs } from './call-placement';

const draining = { error: { code: 'server_draining', message: 'This server is restarting. Try your call again in a moment.' } };

describe('drainingRetryMs', () => {
  it("waits what a draining instance's Retry-After says", () => {
    expect(drainingRetryMs(503, draining, '2')).toBe(2_000);
    expect(drainingRetryMs(503, draining, '0')).toBe(0);
  });

  it("waits the browser's 2 s when the refusal names no usable wait", () => {
    expect(drainingRetryMs(503, draining, null)).toBe(2_000);
    expect(drainingRetryMs(503, draining, 'soon')).toBe(2_000);
  });

  it('does not retry any other answer', () => {
    expect(drainingRetryMs(503, { error: { code: 'redis_unavailable', message: 'Redis' } }, '2')).toBeNull();
    expect(drainingRetryMs(409, draining, '2')).toBeNull();
    expect(drainingRetryMs(503, undefined, '2')).toBeNull();
    expect(drainingRetryMs(503, 'no ready upstream', null)).toBeNull();
  });
});
