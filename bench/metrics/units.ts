import type { Unit } from './dashboard-panels';

/** Up to three significant digits, without trailing zeros: 0.0123 → 0.0123, 12.50 → 12.5, 1234 → 1234. */
function digits(value: number): string {
  if (value === 0) return '0';
  const magnitude = Math.floor(Math.log10(Math.abs(value)));
  return String(Number(value.toFixed(Math.max(0, 2 - magnitude))));
}

type Steps = readonly (readonly [number, string])[];

const SECONDS: Steps = [[1e-6, ' µs'], [1e-3, ' ms'], [1, ' s'], [60, ' min'], [3600, ' h']];
const BYTES: Steps = [[1, ' B'], [1024, ' KiB'], [1024 ** 2, ' MiB'], [1024 ** 3, ' GiB']];
const COUNTS: Steps = [[1, ''], [1e3, ' K'], [1e6, ' Mil']];
const PERCENT: Steps = [[0.01, '%']];
const STEPS: Record<Unit, Steps> = { s: SECONDS, percentunit: PERCENT, bytes: BYTES, short: COUNTS, reqps: COUNTS, cpm: COUNTS };
const SUFFIXES: Partial<Record<Unit, string>> = { reqps: ' req/s', cpm: ' cpm' };

const stepFor = (value: number, steps: Steps) => steps.findLast(([size]) => Math.abs(value) >= size) ?? steps[0]!;

function scaled(value: number, steps: Steps): string {
  const [factor, suffix] = stepFor(value, steps);
  return `${digits(value / factor)}${suffix}`;
}

/** What one of the unit's displayed numbers is worth around `value` (0.001 in milliseconds, 60 in minutes), so that an axis can step in round displayed numbers. */
export function displayFactor(value: number, unit: Unit): number {
  return stepFor(value, STEPS[unit])[0];
}

/** A value in a Grafana unit, written about as Grafana writes it. */
export function formatValue(value: number, unit: Unit): string {
  if (!Number.isFinite(value)) return String(value);
  if (value === 0) return unit === 'percentunit' ? '0%' : '0';
  return `${scaled(value, STEPS[unit])}${SUFFIXES[unit] ?? ''}`;
}
