import { performance } from 'node:perf_hooks';
import { cpuBusyPercent, readCpuTimes, type CpuTimes } from '../media/machine-load';

const TICK_MS = 100;
const TICKS_PER_SECOND = 1000 / TICK_MS;
/** A timer this late means the load generator stopped: every frame it sends or times waits with it. */
const STALL_MS = 250;
/** The machine is saturated when its cores are this busy together: the servers wait for a core. */
const SATURATED_PERCENT = 95;

/**
 * What else could stop a call's frames than Voxline: the load generator's own stalls (its event
 * loop late by over STALL_MS) and the seconds the machine's CPUs were all busy, each at its time
 * since `since` (the machine is shared).
 */
export class LoadWatch {
  /** The generator's stalls, as [seconds since `since`, ms late]. */
  readonly stalls: [number, number][] = [];
  longestStallMs = 0;
  /** The seconds since `since` in which the machine was saturated, and how many were watched. */
  readonly saturatedSeconds: number[] = [];
  watchedSeconds = 0;
  private readonly first: CpuTimes | null = readCpuTimes();
  private last: CpuTimes | null = this.first;
  private ticks = 0;
  private expectedAt: number;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly since: number) {
    this.expectedAt = performance.now() + TICK_MS;
    this.timer = setInterval(() => this.tick(), TICK_MS);
  }

  /** Stops watching; answers the machine's CPU over the whole time, in % of all its cores, when it can be read. */
  stop(): number | null {
    clearInterval(this.timer);
    const now = readCpuTimes();
    return this.first && now ? cpuBusyPercent(this.first, now).all / Math.max(1, now.cores.length) : null;
  }

  private tick() {
    const now = performance.now();
    const lateMs = now - this.expectedAt;
    this.expectedAt = now + TICK_MS;
    this.longestStallMs = Math.max(this.longestStallMs, lateMs);
    if (lateMs > STALL_MS) this.stalls.push([(now - this.since) / 1000, lateMs]);
    this.ticks += 1;
    if (this.ticks % TICKS_PER_SECOND !== 0) return;
    const cpu = readCpuTimes();
    if (this.last && cpu) {
      this.watchedSeconds += 1;
      if (cpuBusyPercent(this.last, cpu).all / Math.max(1, cpu.cores.length) >= SATURATED_PERCENT) this.saturatedSeconds.push(Math.floor((now - this.since) / 1000));
    }
    this.last = cpu;
  }
}

/** Whole seconds as short ranges: [3, 4, 5, 9] is "+3–5 s, +9 s". */
export function secondRanges(seconds: number[]): string {
  const ranges: [number, number][] = [];
  for (const second of [...seconds].sort((a, b) => a - b)) {
    const last = ranges.at(-1);
    if (last && second <= last[1] + 1) last[1] = second;
    else ranges.push([second, second]);
  }
  return ranges.map(([from, to]) => (from === to ? `+${from} s` : `+${from}–${to} s`)).join(', ');
}
