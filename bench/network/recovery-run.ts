import { type RecoveryCriteria, recoveryMs } from './audio-analysis';
import type { CallCapture, Phase } from './call-capture';
import { callFigures, listenersOver } from './call-figures';
import { profiles } from './profiles';
import type { RecoveryRow } from './results-table';
import type { Scenario } from './scenarios';
import type { Transport } from './voxline-under-test';

// Clean first, to know the figures recovery returns to; bad long enough for the buffers to grow.
const BEFORE_MS = 4_000;
const BAD_MS = 8_000;
const AFTER_MS = 8_000;
const TOLERANCE_MS = 50;
/** Recovery must have held this long before the window ends to count. */
const SETTLED_MS = 2_000;

/** The recovery run's one call: clean, bad, clean again. */
export const recoveryPhases: readonly Phase[] = [
  { profile: profiles.clean, ms: BEFORE_MS },
  { profile: profiles.bad, ms: BAD_MS },
  { profile: profiles.clean, ms: AFTER_MS },
];

export const recoveryDescription =
  `clean ${BEFORE_MS / 1000} s, bad ${BAD_MS / 1000} s, clean ${AFTER_MS / 1000} s; audible again once no gap follows, ` +
  `delay back once, moreover, no stretch follows that is more than ${TOLERANCE_MS} ms beyond the p95 before the bad stretch or matches at no one delay (still moving); ` +
  `"not within the run" when that was still so in the last ${SETTLED_MS / 1000} s.`;

/** The recovery run's figures: before, during and after the bad stretch, and how long the audio took to come back. */
export function recoveryRow(capture: CallCapture, scenario: Scenario, transport: Transport): RecoveryRow {
  const [badFromMs, cleanFromMs] = capture.phaseStartsMs.slice(1) as [number, number];
  const before = listenersOver(capture, capture.fromMs, badFromMs);
  const fromBad = listenersOver(capture, badFromMs, capture.toMs);
  // The longest any listener took; null when one was not back within the run.
  const slowest = (delay: (i: number) => RecoveryCriteria['delay']) => {
    const times = fromBad.map((listener, i) => recoveryMs(listener, cleanFromMs, capture.toMs, { delay: delay(i), settledMs: SETTLED_MS }));
    return times.some((value) => value === null) ? null : Math.max(...(times as number[]));
  };
  return {
    scenario: scenario.name,
    transport,
    transportUsed: capture.transportUsed,
    before: callFigures(before, capture.intendedDelayMs),
    bad: callFigures(listenersOver(capture, badFromMs, cleanFromMs), capture.intendedDelayMs),
    audibleAfterMs: slowest(() => null),
    delayBackAfterMs: slowest((i) => ({ normalMs: before[i]!.delayP95Ms ?? Number.POSITIVE_INFINITY, toleranceMs: TOLERANCE_MS })),
    after: callFigures(listenersOver(capture, capture.toMs - AFTER_MS / 2, capture.toMs), capture.intendedDelayMs),
  };
}
