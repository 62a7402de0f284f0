import { describe, expect, it } from 'vitest';
import { longTasks, mainThread, type TraceEvent, traceProfile } from './long-tasks';

const page = { pid: 7, tid: 1 };
const frame = (functionName: string, url = '') => ({ functionName, url, lineNumber: 0, columnNumber: 0 });
const at = (ms: number) => 1_000_000 + ms * 1000;

// The page parses at 0 ms; one task of 80 ms at 10 ms (a module's evaluation, then a style recalculation), one of 30 ms at 200 ms.
const events: TraceEvent[] = [
  { name: 'ParseHTML', ph: 'X', ts: at(0), dur: 2000, ...page, args: { beginData: { url: 'http://localhost:5000/dialer' } } },
  { name: 'ParseHTML', ph: 'X', ts: at(0), dur: 2000, pid: 9, tid: 1, args: { beginData: { url: 'about:blank' } } },
  { name: 'RunTask', ph: 'X', ts: at(10), dur: 80_000, ...page },
  { name: 'v8.evaluateModule', ph: 'X', ts: at(11), dur: 60_000, ...page },
  { name: 'UpdateLayoutTree', ph: 'X', ts: at(72), dur: 12_000, ...page },
  { name: 'Layout', ph: 'X', ts: at(85), dur: 4000, ...page },
  { name: 'RunTask', ph: 'X', ts: at(200), dur: 30_000, ...page },
  { name: 'RunTask', ph: 'X', ts: at(10), dur: 90_000, pid: 9, tid: 1 },
  { name: 'Profile', ph: 'P', ts: at(0), ...page, id: '0x1', args: { data: { startTime: at(0) } } },
  {
    name: 'ProfileChunk',
    ph: 'P',
    ts: at(100),
    ...page,
    id: '0x1',
    args: {
      data: {
        cpuProfile: {
          nodes: [
            { id: 1, callFrame: frame('(root)') },
            { id: 2, callFrame: frame('main', '/assets/index.js'), parent: 1 },
            { id: 3, callFrame: frame('render', '/assets/framework.js'), parent: 2 },
            { id: 4, callFrame: frame('(idle)'), parent: 1 },
          ],
          // 20 ms of main and 30 of render inside the first task; idle, then render again after it.
          samples: [2, 3, 4, 3],
        },
        timeDeltas: [at(30) - at(0), 30_000, 50_000, 100_000],
      },
    },
  },
];
const locate = (url: string) => (url.endsWith('framework.js') ? 'node_modules/preact/dist/preact.mjs' : 'src/web/main.tsx');

describe("a page load's long tasks from a trace", () => {
  it("finds the page's main thread by the HTML it parsed", () => {
    expect(mainThread(events, 'http://localhost:5000')).toEqual(page);
    expect(mainThread(events, 'http://localhost:6000')).toBeNull();
  });

  it("rebuilds the thread's CPU profile with each sample's time", () => {
    const { profile, sampleTimes } = traceProfile(events, page);
    expect(profile.samples).toEqual([2, 3, 4, 3]);
    expect(sampleTimes).toEqual([at(30), at(60), at(110), at(210)]);
    expect(profile.nodes.find((node) => node.id === 2)?.children).toEqual([3]);
  });

  it('keeps the tasks over 50 ms with what started them, their style and layout, and their script time by file', () => {
    expect(longTasks(events, page, locate)).toEqual([
      {
        startMs: 10,
        durationMs: 80,
        blockingMs: 30,
        startedBy: 'v8.evaluateModule',
        styleMs: 12,
        layoutMs: 4,
        files: [
          ['src/web/main.tsx', 60],
          ['node_modules/preact/dist/preact.mjs', 30],
        ],
      },
    ]);
  });
});
