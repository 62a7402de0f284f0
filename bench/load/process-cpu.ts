import fs from 'node:fs';

// USER_HZ: the unit of /proc/<pid>/stat's times on every Linux the bench runs on.
const TICKS_PER_SECOND = 100;

/** CPU time (ms) of each running process that `matches` (its name and its parent's pid), by pid, from /proc (Linux); empty where there is none. */
function processesCpuMs(matches: (name: string, parentPid: number) => boolean): Map<number, number> {
  const times = new Map<number, number>();
  let pids: string[];
  try {
    pids = fs.readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return times;
  }
  for (const pid of pids) {
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue;
    }
    // The name sits in parentheses and may hold spaces; then state, the parent's pid, and utime and stime as fields 14 and 15.
    const close = stat.lastIndexOf(')');
    const fields = stat.slice(close + 2).split(' ');
    if (!matches(stat.slice(stat.indexOf('(') + 1, close), Number(fields[1]))) continue;
    times.set(Number(pid), ((Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND) * 1000);
  }
  return times;
}

/** CPU time (ms) of each running process named `name`, by pid. */
export function processCpuMs(name: string): Map<number, number> {
  return processesCpuMs((each) => each === name);
}

/** CPU time (ms) of each running child of `parentPid` (a Voxline instance's recordings encoder), by pid. */
export function childProcessesCpuMs(parentPid: number): Map<number, number> {
  return processesCpuMs((_, parent) => parent === parentPid);
}

/**
 * CPU time used between two readings by the processes still running at the second, those started
 * meanwhile included; null when there were none. Processes that ended meanwhile are not counted.
 */
export function cpuMsBetween(before: Map<number, number>, after: Map<number, number>): number | null {
  if (after.size === 0) return null;
  let ms = 0;
  for (const [pid, time] of after) ms += time - (before.get(pid) ?? 0);
  return ms;
}
