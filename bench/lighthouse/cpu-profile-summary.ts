/** The parts of a CDP Profiler.Profile this summary reads. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; children?: number[] }[];
  samples?: number[];
  timeDeltas?: number[];
}

/** Where a frame's code came from: its original source file (through the chunk's source map) or, without one, its URL's file name. */
export type LocateFrame = (url: string, line: number, column: number) => string;

/** Time spent in each original source file: `self` in the file's own code, `inclusive` with what it called. */
export interface FileTimes {
  self: Map<string, number>;
  inclusive: Map<string, number>;
  /** The sampled time with V8's idle and program frames left out. */
  busyMs: number;
}

const NOT_WORK = new Set(['(idle)', '(program)']);

/** `node_modules/preact/dist/preact.mjs` → `preact`; `src/web/lib/session.ts` → `src/web/lib`. */
export function packageOf(file: string): string {
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  if (inModules) return inModules[1]!;
  const slash = file.lastIndexOf('/');
  return slash > 0 ? file.slice(0, slash).replace(/^(\.\.\/)+/, '') : file;
}

/** Sums a profile's sampled time per source file: where V8 was (self), and every file on the stack (inclusive, once per sample). */
export function fileTimes(profile: CpuProfile, locate: LocateFrame): FileTimes {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const fileOf = new Map<number, string>();
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber, columnNumber } = node.callFrame;
    fileOf.set(node.id, url ? locate(url, lineNumber, columnNumber) : functionName || '(native)');
  }
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let busyMs = 0;
  const samples = profile.samples ?? [];
  samples.forEach((id, index) => {
    const ms = (profile.timeDeltas?.[index] ?? 0) / 1000;
    if (NOT_WORK.has(byId.get(id)!.callFrame.functionName)) return;
    busyMs += ms;
    const file = fileOf.get(id)!;
    self.set(file, (self.get(file) ?? 0) + ms);
    const onStack = new Set<string>();
    for (let node: number | undefined = id; node !== undefined; node = parentOf.get(node)) if (byId.get(node)!.callFrame.url) onStack.add(fileOf.get(node)!);
    for (const stackFile of onStack) inclusive.set(stackFile, (inclusive.get(stackFile) ?? 0) + ms);
  });
  return { self, inclusive, busyMs };
}

/** Adds each file's time to its package's (or folder's). */
export function byPackage(times: Map<string, number>): Map<string, number> {
  const packages = new Map<string, number>();
  for (const [file, ms] of times) packages.set(packageOf(file), (packages.get(packageOf(file)) ?? 0) + ms);
  return packages;
}
