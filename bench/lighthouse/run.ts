import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import lighthouse, { type RunnerResult } from 'lighthouse';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tests/e2e/support/chromium';
import { startServer } from '../../tests/e2e/support/server';
import { freePort } from '../../tests/support/free-port';
import { calibratedCpuSlowdown, measureBenchmarkIndex } from './cpu-slowdown';
import { CATEGORIES, medianRun, type PageRuns, scoresOf, scoreTable, targetsMissed } from './run-scores';
import { PAGES } from './pages';
import { signedInCookie } from './session-cookie';
import { buildWebApp, webBuildIsStale } from './web-build';

/**
 * npm run lighthouse (issue 22): Lighthouse 12 on Debian's Chromium, mobile emulation with its
 * default simulated throttling, on the home, sign-in, dialer and call settings pages of the built
 * app served by the real server. Prints a Markdown table of each page's median run and writes
 * every run's JSON and HTML report to a temporary folder.
 *
 *   npm run lighthouse -- --runs 5 --out /tmp/lighthouse [--no-build] [--pages /dialer,/call-settings] [--cpu-slowdown 2.5|calibrated]
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    out: { type: 'string' },
    // --no-build measures dist/web as it stands, even when older than its sources.
    build: { type: 'boolean', default: true },
    // A comma-separated subset of the pages, to compare builds on the ones that differ.
    pages: { type: 'string' },
    // Lighthouse's 4x by default; a number, or `calibrated` to the host's benchmark index (cpu-slowdown.ts).
    'cpu-slowdown': { type: 'string' },
  },
  allowNegative: true,
});
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1 || runs > 20) throw new Error(`--runs takes a whole number from 1 to 20 (got ${values.runs})`);
const pagePaths = values.pages?.split(',') ?? PAGES.map((page) => page.path);
const unknownPages = pagePaths.filter((pagePath) => !PAGES.some((page) => page.path === pagePath));
if (unknownPages.length > 0) throw new Error(`--pages takes some of ${PAGES.map((page) => page.path).join(', ')} (got ${unknownPages.join(', ')})`);
const cpuSlowdownOption = values['cpu-slowdown'];
if (cpuSlowdownOption !== undefined && cpuSlowdownOption !== 'calibrated' && !(Number(cpuSlowdownOption) >= 1 && Number(cpuSlowdownOption) <= 20)) {
  throw new Error(`--cpu-slowdown takes a number from 1 to 20 or "calibrated" (got ${cpuSlowdownOption})`);
}
const outDir = values.out ?? fs.mkdtempSync(path.join(os.tmpdir(), 'voxline-lighthouse-'));
fs.mkdirSync(outDir, { recursive: true });

if (values.build && webBuildIsStale(ROOT)) {
  console.log('dist/web is missing or older than its sources: building it');
  buildWebApp(ROOT);
}

/** One Lighthouse run, tried again once when Lighthouse itself fails (its trace can miss the navigation's start: NO_NAVSTART). */
async function lighthouseRun(url: string, cookie: string | null, attemptsLeft = 2): Promise<RunnerResult> {
  const result = await lighthouse(url, {
    port: debuggingPort,
    ...(cpuSlowdown === null ? {} : { throttling: { cpuSlowdownMultiplier: cpuSlowdown } }),
    output: ['json', 'html'],
    logLevel: 'error',
    onlyCategories: [...CATEGORIES],
    ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
  });
  if (!result) throw new Error(`Lighthouse returned no result for ${url}`);
  if (!result.lhr.runtimeError) return result;
  if (attemptsLeft > 1) {
    console.log(`Lighthouse failed on ${url} (${result.lhr.runtimeError.code}): trying again`);
    return lighthouseRun(url, cookie, attemptsLeft - 1);
  }
  throw new Error(`Lighthouse could not load ${url}: ${result.lhr.runtimeError.message}`);
}

const server = await startServer({ root: ROOT });
const debuggingPort = await freePort();
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, `--remote-debugging-port=${debuggingPort}`] });
async function stopAll() {
  await browser.close();
  await server.stop();
}
// Ctrl-C must not leave the server and its data folder behind.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stopAll().finally(() => process.exit(130)));
/** Lighthouse's own default (4x) when null. */
let cpuSlowdown: number | null = null;
try {
  let slowdownSaid = 'CPU slowdown 4x (Lighthouse\'s default)';
  if (cpuSlowdownOption === 'calibrated') {
    const index = await measureBenchmarkIndex(browser);
    cpuSlowdown = Math.round(calibratedCpuSlowdown(index) * 100) / 100;
    slowdownSaid = `CPU slowdown ${cpuSlowdown}x, calibrated from a benchmark index of ${index} measured before the runs`;
    console.log(`${slowdownSaid}\n`);
  } else if (cpuSlowdownOption !== undefined) {
    cpuSlowdown = Number(cpuSlowdownOption);
    slowdownSaid = `CPU slowdown ${cpuSlowdown}x`;
  }
  const cookie = await signedInCookie(server.url);
  const pages: PageRuns[] = [];
  let lighthouseVersion = '';
  // Lighthouse's own CPU yardstick, taken at each run: its 4x CPU slowdown assumes a fast desktop (about 1,500).
  const benchmarkIndexes: number[] = [];
  for (const page of PAGES.filter(({ path: pagePath }) => pagePaths.includes(pagePath))) {
    const url = `${server.url}${page.path}`;
    const pageRuns: PageRuns = { ...page, runs: [] };
    for (let run = 1; run <= runs; run += 1) {
      const result = await lighthouseRun(url, page.signedIn ? cookie : null);
      if (result.lhr.finalDisplayedUrl !== url) throw new Error(`${page.path} ended at ${result.lhr.finalDisplayedUrl}: a signed-in page sent the bench away, or a public one redirected`);
      const [json, html] = result.report as string[];
      const name = `${page.path.replace(/\W+/g, '-').replace(/^-|-$/g, '') || 'home'}-${run}`;
      fs.writeFileSync(path.join(outDir, `${name}.report.json`), json!);
      fs.writeFileSync(path.join(outDir, `${name}.report.html`), html!);
      lighthouseVersion = result.lhr.lighthouseVersion;
      benchmarkIndexes.push(result.lhr.environment.benchmarkIndex);
      const scores = scoresOf(result.lhr);
      console.log(`${page.path} run ${run}/${runs}: ${CATEGORIES.map((id) => `${id} ${scores.scores[id] ?? '–'}`).join(', ')}`);
      pageRuns.runs.push(scores);
    }
    pages.push(pageRuns);
  }

  console.log(`\nLighthouse ${lighthouseVersion}, ${await browser.version()}, mobile emulation, simulated throttling, ${slowdownSaid}; median of ${runs} run(s) by performance score; CPU benchmark index ${Math.min(...benchmarkIndexes)}–${Math.max(...benchmarkIndexes)}\n`);
  console.log(scoreTable(pages).join('\n'));
  console.log('');
  for (const { path: pagePath, runs: pageRunList } of pages) {
    const median = medianRun(pageRunList);
    const missed = targetsMissed(median);
    console.log(`${pagePath}: ${missed.length === 0 ? 'every target met' : `missed ${missed.join(', ')}`}`);
    for (const shortfall of median.shortfalls) console.log(`  - ${shortfall}`);
  }
  console.log(`\nReports: ${outDir}`);
} finally {
  await stopAll();
}
