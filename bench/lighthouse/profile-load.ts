import fs from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tests/e2e/support/chromium';
import { startServer } from '../../tests/e2e/support/server';
import { byPackage, fileTimes } from './cpu-profile-summary';
import { type LongTask, longTasks, mainThread, type TraceEvent, traceProfile } from './long-tasks';
import { PAGES } from './pages';
import { signedInCookie } from './session-cookie';
import { buildWebApp, webBuildIsStale } from './web-build';

/**
 * npm run profile:load (issue 22): where a page's first load spends the main thread, by source
 * file and package. Loads the page in Chromium at a phone's viewport with the CPU slowed as
 * Lighthouse slows it, records V8's CPU profile for the load and the seconds after it, and maps
 * each frame to its original file through the build's source maps. Lighthouse says how long the
 * main thread was blocked; this says by what. With `--tasks`, each load's long tasks too: what
 * started each, its style and layout time, and the files its script time went to.
 *
 *   npm run profile:load -- --page /dialer [--cpu 4] [--loads 3] [--no-build] [--top 25] [--tasks]
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { values } = parseArgs({
  options: {
    page: { type: 'string', default: '/dialer' },
    cpu: { type: 'string', default: '4' },
    loads: { type: 'string', default: '3' },
    top: { type: 'string', default: '25' },
    build: { type: 'boolean', default: true },
    tasks: { type: 'boolean', default: false },
  },
  allowNegative: true,
});
const page = PAGES.find(({ path: pagePath }) => pagePath === values.page);
if (!page) throw new Error(`--page takes one of ${PAGES.map(({ path: pagePath }) => pagePath).join(', ')} (got ${values.page})`);
const [cpu, loads, top] = [Number(values.cpu), Number(values.loads), Number(values.top)];
if (!(cpu >= 1 && cpu <= 20)) throw new Error(`--cpu takes a slowdown from 1 to 20 (got ${values.cpu})`);
if (!Number.isInteger(loads) || loads < 1 || loads > 20) throw new Error(`--loads takes a whole number from 1 to 20 (got ${values.loads})`);
if (!Number.isInteger(top) || top < 1) throw new Error(`--top takes a whole number above 0 (got ${values.top})`);

if (values.build && webBuildIsStale(ROOT)) {
  console.log('dist/web is missing or older than its sources: building it');
  buildWebApp(ROOT);
}

const sourceMaps = new Map<string, SourceMap | null>();
function locate(url: string, line: number, column: number): string {
  const file = /\/assets\/([^/?#]+\.js)$/.exec(url)?.[1];
  if (!file) return url.split('/').pop() || url;
  if (!sourceMaps.has(file)) {
    const mapPath = path.join(ROOT, 'dist/web/assets', `${file}.map`);
    sourceMaps.set(file, fs.existsSync(mapPath) ? new SourceMap(JSON.parse(fs.readFileSync(mapPath, 'utf8'))) : null);
  }
  const entry = sourceMaps.get(file)?.findEntry(line, column);
  // Code the bundler wrote itself (its module runtime, a chunk's glue) maps to no source.
  const source = entry && 'originalSource' in entry ? (entry.originalSource as string | undefined) : undefined;
  return source ? source.replace(/^(\.\.\/)+/, '') : file;
}

const TRACE_CATEGORIES = ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'disabled-by-default-v8.cpu_profiler'];
const TASK_FILES = 4;

function printTasks(load: number, tasks: LongTask[]) {
  const blocking = tasks.reduce((sum, task) => sum + task.blockingMs, 0);
  console.log(`\nLoad ${load}: ${tasks.length} tasks over 50 ms, ${blocking.toFixed(0)} ms beyond 50 ms in all`);
  console.log('| at (ms) | length (ms) | started by | style / layout (ms) | script by file, inclusive (ms) |\n| ---: | ---: | --- | --- | --- |');
  for (const task of tasks) {
    const files = task.files.slice(0, TASK_FILES).map(([file, ms]) => `${file} ${ms.toFixed(0)}`).join(', ');
    console.log(`| ${task.startMs.toFixed(0)} | ${task.durationMs.toFixed(0)} | ${task.startedBy} | ${task.styleMs.toFixed(0)} / ${task.layoutMs.toFixed(0)} | ${files} |`);
  }
}

const server = await startServer({ root: ROOT });
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
try {
  const cookie = page.signedIn ? await signedInCookie(server.url) : null;
  const totals = { self: new Map<string, number>(), inclusive: new Map<string, number>(), busyMs: 0 };
  const add = (into: Map<string, number>, from: Map<string, number>) => {
    for (const [key, ms] of from) into.set(key, (into.get(key) ?? 0) + ms / loads);
  };
  for (let load = 1; load <= loads; load += 1) {
    // Lighthouse's mobile screen, and a fresh context each load: nothing cached, no service worker.
    const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true });
    if (cookie) await context.setExtraHTTPHeaders({ cookie });
    const tab = await context.newPage();
    const cdp = await context.newCDPSession(tab);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpu });
    // A trace rather than the Profiler domain: it holds the same samples and, beside them, where each task began and ended.
    const events: TraceEvent[] = [];
    cdp.on('Tracing.dataCollected', ({ value }) => events.push(...(value as unknown as TraceEvent[])));
    const traced = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.start', { traceConfig: { includedCategories: TRACE_CATEGORIES }, transferMode: 'ReportEvents' });
    await tab.goto(`${server.url}${page.path}`, { waitUntil: 'load' });
    // Lighthouse counts blocking time until the page is quiet: the chunks and data asked for after load included.
    await tab.waitForTimeout(5000);
    await cdp.send('Tracing.end');
    await traced;
    if (new URL(tab.url()).pathname !== page.path) throw new Error(`${page.path} ended at ${tab.url()}`);
    const thread = mainThread(events, server.url);
    if (!thread) throw new Error(`the trace of ${page.path} has no renderer that parsed the page`);
    const times = fileTimes(traceProfile(events, thread).profile, locate);
    if (values.tasks) printTasks(load, longTasks(events, thread, locate));
    totals.busyMs += times.busyMs / loads;
    add(totals.self, times.self);
    add(totals.inclusive, times.inclusive);
    await context.close();
  }
  const table = (title: string, times: Map<string, number>) => {
    console.log(`\n${title}\n| ms | where |\n| ---: | --- |`);
    for (const [where, ms] of [...times].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`| ${ms.toFixed(1)} | ${where} |`);
  };
  console.log(`${page.path}, ${await browser.version()}, CPU slowed ${cpu}x, mean of ${loads} load(s): ${totals.busyMs.toFixed(0)} ms of main-thread work (idle and V8's own "(program)" time left out)`);
  table('Self time by package or folder', byPackage(totals.self));
  table('Self time by file', totals.self);
  table('Inclusive time by file (the file and what it called)', totals.inclusive);
} finally {
  await browser.close();
  await server.stop();
}
