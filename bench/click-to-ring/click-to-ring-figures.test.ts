import { describe, expect, it } from 'vitest';
import { clickToRingTable } from './click-to-ring-figures';

describe('clickToRingTable', () => {
  const calls = Array.from({ length: 20 }, (_, index) => ({ toRequestMs: index + 1, toDocumentMs: 10 * (index + 1), toFrameMs: 10 * (index + 1) + 5 }));

  it('gives p50, p95 and max by nearest rank over the calls', () => {
    const [, , request, inDocument, painted] = clickToRingTable(calls);
    expect(request).toBe('| request placing the call sent (microphone open) | 20 | 10 | 19 | 20 |');
    expect(inDocument).toBe('| Incoming Call in the callee’s document | 20 | 100 | 190 | 200 |');
    expect(painted).toBe('| Incoming Call painted (next frame) | 20 | 105 | 195 | 205 |');
  });

  it('judges the target on the painted p95', () => {
    expect(clickToRingTable(calls).at(-1)).toBe('Target p95 ≤ 200 ms: met (195 ms).');
    const slower = calls.map((call) => ({ ...call, toFrameMs: call.toFrameMs + 10 }));
    expect(clickToRingTable(slower).at(-1)).toBe('Target p95 ≤ 200 ms: missed (205 ms).');
  });

  it('says so when no call was measured', () => {
    expect(clickToRingTable([]).at(-1)).toBe('No call measured.');
  });
});
