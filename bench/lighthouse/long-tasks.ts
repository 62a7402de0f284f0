import { type CpuProfile, fileTimes, type LocateFrame } from './cpu-profile-summary';

/**
 * A page load's long tasks read from a Chromium trace (the `toplevel`, `devtools.timeline` and
 * `disabled-by-default-v8.cpu_profiler` categories): what started each task, how much of it was
 * style and layout, and which source files its script time went to. Lighthouse's total blocking
 * time is the sum of each such task's time beyond 50 ms; this says what to shrink or split.
 */

/** The parts of a trace event this reads. */
export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  id?: string;
  args?: { data?: Record<string, unknown> & { url?: string }; beginData?: { url?: string } };
}

export interface Thread {
  pid: number;
  tid: number;
}

export interface LongTask {
  /** From the start of the page's HTML parsing. */
  startMs: number;
  durationMs: number;
  /** The part beyond 50 ms, as total blocking time counts it. */
  blockingMs: number;
  /** The longest of the events the task ran: a script's evaluation, a timer, a callback, parsing, rendering. */
  startedBy: string;
  styleMs: number;
  layoutMs: number;
  /** Sampled script time per source file, the file and what it called (inclusive), longest first. */
  files: [string, number][];
}

const BLOCKING_FROM_MS = 50;
const ENTRY_EVENTS = new Set(['EvaluateScript', 'v8.evaluateModule', 'TimerFire', 'FunctionCall', 'FireAnimationFrame', 'EventDispatch', 'ParseHTML', 'UpdateLayoutTree', 'Layout', 'MajorGC', 'MinorGC', 'v8.compile']);

/** The renderer thread that parsed the page at `pageUrl`: its main thread. */
export function mainThread(events: TraceEvent[], pageUrl: string): Thread | null {
  const parse = events.find((event) => event.name === 'ParseHTML' && String(event.args?.beginData?.url ?? '').startsWith(pageUrl));
  return parse ? { pid: parse.pid, tid: parse.tid } : null;
}

/**
 * The CPU profile the trace carries for `thread`, in the Profiler domain's shape, with each
 * sample's time on the trace's clock (microseconds).
 */
export function traceProfile(events: TraceEvent[], thread: Thread): { profile: CpuProfile; sampleTimes: number[] } {
  const started = events.find((event) => event.name === 'Profile' && event.pid === thread.pid && event.tid === thread.tid);
  const nodes = new Map<number, CpuProfile['nodes'][number]>();
  const parents: [number, number][] = [];
  const samples: number[] = [];
  const timeDeltas: number[] = [];
  const sampleTimes: number[] = [];
  if (!started) return { profile: { nodes: [], samples, timeDeltas }, sampleTimes };
  let clock = Number((started.args?.data as { startTime?: number } | undefined)?.startTime ?? started.ts);
  for (const event of events) {
    if (event.name !== 'ProfileChunk' || event.pid !== thread.pid || event.id !== started.id) continue;
    const data = event.args?.data as { cpuProfile?: { nodes?: { id: number; parent?: number; callFrame: CpuProfile['nodes'][number]['callFrame'] }[]; samples?: number[] }; timeDeltas?: number[] } | undefined;
    for (const node of data?.cpuProfile?.nodes ?? []) {
      nodes.set(node.id, { id: node.id, callFrame: node.callFrame, children: [] });
      if (node.parent !== undefined) parents.push([node.parent, node.id]);
    }
    (data?.cpuProfile?.samples ?? []).forEach((id, index) => {
      const delta = data?.timeDeltas?.[index] ?? 0;
      clock += delta;
      samples.push(id);
      timeDeltas.push(delta);
      sampleTimes.push(clock);
    });
  }
  for (const [parent, child] of parents) nodes.get(parent)?.children?.push(child);
  return { profile: { nodes: [...nodes.values()], samples, timeDeltas }, sampleTimes };
}

/** The tasks of `thread` longer than 50 ms, in order, with what each did. */
export function longTasks(events: TraceEvent[], thread: Thread, locate: LocateFrame): LongTask[] {
  const own = events.filter((event) => event.pid === thread.pid && event.tid === thread.tid && event.ph === 'X' && event.dur !== undefined);
  const origin = Math.min(...own.filter((event) => event.name === 'ParseHTML').map((event) => event.ts));
  const { profile, sampleTimes } = traceProfile(events, thread);
  const tasks: LongTask[] = [];
  for (const task of own) {
    if (task.name !== 'RunTask' || task.dur! <= BLOCKING_FROM_MS * 1000) continue;
    const end = task.ts + task.dur!;
    const inside = own.filter((event) => event !== task && event.ts >= task.ts && event.ts + event.dur! <= end);
    const total = (name: string) => inside.filter((event) => event.name === name).reduce((sum, event) => sum + event.dur! / 1000, 0);
    const entry = inside.filter((event) => ENTRY_EVENTS.has(event.name)).sort((a, b) => b.dur! - a.dur!)[0];
    const within = sampleTimes.flatMap((time, index) => (time >= task.ts && time <= end ? [index] : []));
    const { inclusive } = fileTimes({ nodes: profile.nodes, samples: within.map((index) => profile.samples![index]!), timeDeltas: within.map((index) => profile.timeDeltas![index]!) }, locate);
    const durationMs = task.dur! / 1000;
    tasks.push({
      startMs: (task.ts - origin) / 1000,
      durationMs,
      blockingMs: durationMs - BLOCKING_FROM_MS,
      startedBy: entry ? describeEntry(entry, locate) : 'nothing traced',
      styleMs: total('UpdateLayoutTree'),
      layoutMs: total('Layout'),
      files: [...inclusive].sort((a, b) => b[1] - a[1]),
    });
  }
  return tasks;
}

function describeEntry(event: TraceEvent, locate: LocateFrame): string {
  const data = event.args?.data as { url?: string; functionName?: string; lineNumber?: number; columnNumber?: number } | undefined;
  if (!data?.url) return event.name;
  const where = locate(data.url, data.lineNumber ?? 0, data.columnNumber ?? 0);
  return `${event.name} ${data.functionName ? `${data.functionName} ` : ''}(${where})`;
}
