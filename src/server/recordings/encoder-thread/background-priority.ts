import { readlinkSync } from 'node:fs';
import { constants, getPriority, setPriority } from 'node:os';

/**
 * How far below the calls the encoder thread runs (a nice value, 0 to 19). A recording may wait
 * a few hundred milliseconds without harm, a live frame may not: when the instance's threads and
 * everything else on the machine want more than its cores, the calls' thread goes first and the
 * encoder catches up in the time left (docs/benchmarks.md, bench/load --record).
 */
const ENCODER_NICE = 10;

/**
 * The calling thread's id on Linux, where a nice value belongs to one thread; elsewhere (macOS,
 * Windows) it belongs to the whole process, so null: lowering it there would slow the calls too.
 */
function linuxThreadId(): number | null {
  if (process.platform !== 'linux') return null;
  try {
    return Number(readlinkSync('/proc/thread-self').split('/').pop());
  } catch {
    return null;
  }
}

/** Lowers the calling thread's priority for background work; returns its nice value after, or null where threads have none. */
export function runAsBackground(nice = ENCODER_NICE): number | null {
  const thread = linuxThreadId();
  if (thread === null) return null;
  const wanted = Math.min(Math.max(nice, 0), constants.priority.PRIORITY_LOW);
  // Only ever lowered: raising a priority needs privileges, and a thread already lower stays so.
  if (getPriority(thread) < wanted) setPriority(thread, wanted);
  return getPriority(thread);
}
