import fs from 'node:fs';

/** Busy and total time of each CPU and of all of them, from /proc/stat (Linux), in clock ticks. */
export interface CpuTimes {
  all: { busy: number; total: number };
  cores: { busy: number; total: number }[];
}

/** Reads /proc/stat; null where there is none. */
export function readCpuTimes(): CpuTimes | null {
  let text: string;
  try {
    text = fs.readFileSync('/proc/stat', 'utf8');
  } catch {
    return null;
  }
  const times: CpuTimes = { all: { busy: 0, total: 0 }, cores: [] };
  for (const line of text.split('\n')) {
    const match = /^cpu(\d*)\s+(.*)$/.exec(line);
    if (!match) continue;
    // user nice system idle iowait irq softirq steal: idle and iowait are the time nobody ran.
    const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = match[2]!.split(/\s+/).map(Number);
    const busy = user + nice + system + irq + softirq + steal;
    const entry = { busy, total: busy + idle + iowait };
    if (match[1] === '') times.all = entry;
    else times.cores[Number(match[1])] = entry;
  }
  return times;
}

/** CPU used between two readings, in % of one core: on all CPUs together, and on each. */
export function cpuBusyPercent(before: CpuTimes, after: CpuTimes): { all: number; cores: number[] } {
  const share = (a: { busy: number; total: number }, b: { busy: number; total: number }) => ((b.busy - a.busy) / Math.max(1, b.total - a.total)) * 100;
  return {
    all: share(before.all, after.all) * after.cores.length,
    cores: after.cores.map((core, index) => share(before.cores[index] ?? core, core)),
  };
}
