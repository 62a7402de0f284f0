import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tests/e2e/support/chromium';
import { dashboardRows } from './dashboard-panels';
import { dashboardJson } from './grafana-dashboard';
import { panelSeries } from './panel-series';
import { PAGE_WIDTH, renderDashboardHtml } from './render-html';
import { Scraper } from './scraper';

/**
 * npm run bench:dashboard: writes docs/grafana/voxline-dashboard.json from the panel list, then,
 * Grafana not being installable here, renders the dashboard itself over a short bench/load run:
 * scrapes each instance's /metrics every second, computes every panel's PromQL on the samples
 * (bench/metrics), and screenshots the page in Chromium to docs/screenshots/metrics-dashboard.png.
 * See README.md.
 *
 *   npm run bench:dashboard -- [--mode two|single] [--json-only]
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DASHBOARD_JSON = path.join(ROOT, 'docs/grafana/voxline-dashboard.json');
const SCREENSHOT = path.join(ROOT, 'docs/screenshots/metrics-dashboard.png');
const SCRAPE_INTERVAL_MS = 1000;
/** Grafana's $__rate_interval at a 1 s scrape is 4 s and more; 5 s evens out the 20 ms frame clock's beats. */
const RATE_WINDOW_MS = 5000;
/** A short run: enough to show every phase of a bench/load run (sign-ups, tabs, calls, audio, teardown). */
const LOAD = { listeners: 100, calls: 20, seconds: 40, warmup: 2, baselineSeconds: 5, codec: 'opus' };
/** bench/load bounds itself; this only stops a run that hangs. */
const RUN_LIMIT_MS = 15 * 60_000;

function note(line: string) {
  console.log(`[bench:dashboard] ${line}`);
}

/** A port free on the loopback interface now (the kernel's pick), for an instance to take a moment later. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Runs bench/load with `args`, passing its output through; resolves with its exit code, its steps and what it held and measured. */
function runLoad(args: string[], onStep: (text: string) => void): Promise<{ code: number | null; outcomes: string[] }> {
  const child = spawn('npm', ['run', '--silent', 'bench:load', '--', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const outcomes: string[] = [];
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    console.log(line);
    const step = /^\[\s*[\d.]+ s\] (.*)$/.exec(line);
    if (step) onStep(step[1]!);
    // "Target, two instances (…): NOT met (100 tabs, 20 calls, 0 frames dropped, p99 added 3.1 ms)." The target is the full bench's, not this short run's.
    const outcome = /^Target, ([^(]+) \(.*\): (?:NOT )?met \((.*)\)\.$/.exec(line);
    if (outcome) outcomes.push(`bench/load, ${outcome[1]}: ${outcome[2]}.`);
  });
  const limit = setTimeout(() => child.kill('SIGTERM'), RUN_LIMIT_MS);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(limit);
      resolve({ code, outcomes });
    });
  });
}

async function main() {
  const { values } = parseArgs({ options: { mode: { type: 'string', default: 'two' }, 'json-only': { type: 'boolean', default: false } }, strict: true });
  fs.mkdirSync(path.dirname(DASHBOARD_JSON), { recursive: true });
  fs.writeFileSync(DASHBOARD_JSON, dashboardJson());
  note(`wrote ${path.relative(ROOT, DASHBOARD_JSON)}`);
  if (values['json-only']) return;
  if (values.mode !== 'two' && values.mode !== 'single') throw new Error(`--mode must be two or single (got "${values.mode}")`);
  if (!fs.existsSync(CHROMIUM_PATH)) throw new Error(`Chromium is not at ${CHROMIUM_PATH} (see scripts/ensure-chromium.mjs)`);

  const ports = await Promise.all(Array.from({ length: values.mode === 'two' ? 2 : 1 }, freePort));
  const scraper = new Scraper(
    ports.map((port) => `127.0.0.1:${port}`),
    SCRAPE_INTERVAL_MS,
  );
  const args = [
    `--listeners=${LOAD.listeners}`,
    `--calls=${LOAD.calls}`,
    `--seconds=${LOAD.seconds}`,
    `--warmup=${LOAD.warmup}`,
    `--baseline-seconds=${LOAD.baselineSeconds}`,
    `--codec=${LOAD.codec}`,
    `--mode=${values.mode}`,
    `--metrics-ports=${ports.join(',')}`,
  ];
  const began = new Date();
  const steps: { atMs: number; text: string }[] = [];
  note(`npm run bench:load -- ${args.join(' ')}; scraping /metrics on port ${ports.join(' and ')} every ${SCRAPE_INTERVAL_MS / 1000} s`);
  scraper.start();
  const load = await runLoad(args, (text) => steps.push({ atMs: Date.now(), text }));
  scraper.stop();
  if (scraper.malformed) throw scraper.malformed;
  if (load.code !== 0) throw new Error(`bench/load failed (exit code ${load.code}); the screenshot is left as it was`);
  if (scraper.targetsUp.length === 0) throw new Error(`no instance answered on /metrics at METRICS_PORT (${ports.join(', ')}): does the server serve it?`);

  const times = scraper.times;
  note(`${times.length} scrapes of ${scraper.targetsUp.join(' and ')}; rendering`);
  const series = dashboardRows.map((row) => row.panels.map((panel) => panelSeries(panel, scraper.store, times, RATE_WINDOW_MS)));
  const html = renderDashboardHtml({
    title: 'Voxline dashboard (static render)',
    notes: [
      `docs/grafana/voxline-dashboard.json rendered without Grafana, which could not be installed on this machine (not in Debian's packages, no internet access): ` +
        `npm run bench:dashboard computes each panel's PromQL itself (bench/metrics) from /metrics scraped every ${SCRAPE_INTERVAL_MS / 1000} s, as Prometheus would.`,
      `Run of ${began.toISOString().slice(0, 16).replace('T', ' ')} UTC, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}): npm run bench:load -- ${args.filter((arg) => !arg.startsWith('--metrics-ports')).join(' ')}.`,
      `Rates and quantiles over ${RATE_WINDOW_MS / 1000} s windows, every instance (the $instance filter at All). The numbered lines mark the bench's steps.`,
      ...load.outcomes,
    ],
    times,
    marks: steps,
    rows: dashboardRows,
    series,
  });
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'voxline-dashboard-'));
  const page = path.join(folder, 'dashboard.html');
  fs.writeFileSync(page, html);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
  try {
    const tab = await browser.newPage({ viewport: { width: PAGE_WIDTH, height: 1000 } });
    await tab.goto(`file://${page}`);
    fs.mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
    await tab.screenshot({ path: SCREENSHOT, fullPage: true });
  } finally {
    await browser.close();
  }
  note(`wrote ${path.relative(ROOT, SCREENSHOT)} (the page: ${page})`);
}

void main().catch((error: unknown) => {
  console.error(`bench:dashboard failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
