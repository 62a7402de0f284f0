import { describe, expect, it } from 'vitest';
import { Draining } from './draining';

describe('Draining', () => {
  it('runs what registered once, at the first begin, and counts the calls as the app says', () => {
    const draining = new Draining();
    const began: string[] = [];
    draining.onBegin(() => began.push('hub'));
    draining.onBegin(() => began.push('registry'));
    expect(draining.callsInProgress).toBe(0);
    let calls = 2;
    draining.countCallsWith(() => calls);

    draining.begin();
    draining.begin();
    expect(draining.active).toBe(true);
    expect(began).toEqual(['hub', 'registry']);
    expect(draining.callsInProgress).toBe(2);
    calls = 0;
    expect(draining.callsInProgress).toBe(0);
  });
});
