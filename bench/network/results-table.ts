import type { CallFigures } from './call-figures';

/** One measured call of the bench's table. */
export interface ResultRow {
  scenario: string;
  transport: string;
  transportUsed: string;
  profile: string;
  figures: CallFigures | null;
  concealedShare: number | null;
  jitterBufferMs: number | null;
  kbpsUp: number;
  kbpsDown: number;
  serverCpuShare: number;
  /** Why the call could not be measured, instead of figures. */
  error?: string;
}

/** The recovery run: bad for a while, then clean again. */
export interface RecoveryRow {
  scenario: string;
  transport: string;
  transportUsed: string;
  before: CallFigures;
  bad: CallFigures;
  /** How long after the link turned clean the last gap ended; null: not within the run. */
  audibleAfterMs: number | null;
  /** How long after the link turned clean the delay was back near its figure before; null: not within the run. */
  delayBackAfterMs: number | null;
  after: CallFigures;
}

const ms = (value: number | null) => (value === null ? '–' : String(Math.round(value)));
const percent = (value: number | null) => (value === null ? '–' : `${(value * 100).toFixed(1)}`);
const twoPlaces = (value: number | null) => (value === null ? '–' : value.toFixed(2));
const transportCell = ({ transport, transportUsed }: { transport: string; transportUsed: string }) => (transportUsed.startsWith(transport) ? transportUsed : `${transport} → ${transportUsed}`);

function table(header: string[], rows: string[][]): string {
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n');
}

/** The main table: one row per scenario × transport × profile. */
export function resultsTable(rows: readonly ResultRow[]): string {
  return table(
    ['scenario', 'transport', 'profile', 'mouth-to-ear p50 / p95 (ms)', 'longest gap (ms)', 'gaps > 200 ms', 'heard (%)', 'concealed (%)', 'jitter buffer (ms)', 'kbit/s up / down', 'loudness r', 'server CPU / call (%)'],
    rows.map((row) => {
      const { figures } = row;
      const start = [row.scenario, transportCell(row), row.profile];
      if (!figures) return [...start, `failed: ${row.error ?? 'no figures'}`, '', '', '', '', '', '', '', ''];
      return [
        ...start,
        `${ms(figures.delayP50Ms)} / ${ms(figures.delayP95Ms)}`,
        ms(figures.longestGapMs),
        String(figures.gapsOver200Ms),
        percent(figures.heardShare),
        percent(row.concealedShare),
        ms(row.jitterBufferMs),
        `${row.kbpsUp.toFixed(1)} / ${row.kbpsDown.toFixed(1)}`,
        twoPlaces(figures.correlation),
        percent(row.serverCpuShare),
      ];
    }),
  );
}

/** The recovery table: before, during and after the bad stretch, and how long the audio took to come back. */
export function recoveryTable(rows: readonly RecoveryRow[]): string {
  return table(
    ['scenario', 'transport', 'clean before: p50 / p95 (ms)', 'bad: p95 (ms), longest gap (ms)', 'audible again after (ms)', 'delay back after (ms)', 'clean again, its second half: p50 / p95 (ms), longest gap (ms)'],
    rows.map((row) => [
      row.scenario,
      transportCell(row),
      `${ms(row.before.delayP50Ms)} / ${ms(row.before.delayP95Ms)}`,
      `${ms(row.bad.delayP95Ms)}, ${ms(row.bad.longestGapMs)}`,
      row.audibleAfterMs === null ? 'not within the run' : ms(row.audibleAfterMs),
      row.delayBackAfterMs === null ? 'not within the run' : ms(row.delayBackAfterMs),
      `${ms(row.after.delayP50Ms)} / ${ms(row.after.delayP95Ms)}, ${ms(row.after.longestGapMs)}`,
    ]),
  );
}
