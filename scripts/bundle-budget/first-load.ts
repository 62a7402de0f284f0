import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Manifest } from 'vite';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The goal for every budgeted page's first-load JavaScript, in gzip bytes (issue 22: 100 kB, 1 kB = 1000 bytes as Vite counts). */
const FIRST_LOAD_TARGET = 100_000;

/**
 * What a page may load above the target, in gzip bytes: none since the dialer met it (decision 041).
 * A page added to the budget over the target gets its measured figure here, lowered step by step.
 */
const FIRST_LOAD_CEILINGS: Record<string, number> = {};

/**
 * The pages under budget and the modules their routes load lazily (src/web/router.tsx), as the
 * Vite manifest names them (from src/web): the page and any lazy layout it renders inside.
 */
const BUDGETED_PAGES: Record<string, readonly string[]> = {
  '/': ['features/home/home-page.tsx'],
  '/auth': ['features/auth/auth-page.tsx'],
  '/dialer': ['components/app-layout.tsx', 'features/dialer/dialer-page.tsx'],
};

interface PageLoad {
  path: string;
  /** The JavaScript files fetched before the page shows, relative to the build's folder. */
  files: string[];
  gzipBytes: number;
}

export interface FirstLoadReport {
  pages: PageLoad[];
  totalJsGzipBytes: number;
  totalCssGzipBytes: number;
}

/**
 * Builds the web client as production does, into outDir, with the manifest this measure reads. A
 * process of its own: under a test runner NODE_ENV is 'test', and Vite would bundle React's development build.
 */
export async function buildWebClient(outDir: string) {
  const vite = join(ROOT, 'node_modules/vite/bin/vite.js');
  const options = ['--outDir', outDir, '--emptyOutDir', '--manifest', '--sourcemap', 'false', '--logLevel', 'warn'];
  const build = spawn(process.execPath, [vite, 'build', ...options], { cwd: ROOT, env: { ...process.env, NODE_ENV: 'production' }, stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  build.stderr.setEncoding('utf8').on('data', (text: string) => (errors += text));
  const [code] = (await once(build, 'close')) as [number | null];
  if (code !== 0) throw new Error(`vite build exited with ${code}:\n${errors}`);
}

function gzipSize(file: string) {
  return gzipSync(readFileSync(file), { level: 9 }).length;
}

function allFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(folder, join(entry.parentPath, entry.name)));
}

/** The scripts index.html runs and preloads: the app's entry and its static imports. */
function entryScripts(indexHtml: string) {
  const tags = [...indexHtml.matchAll(/<script\b[^>]*\btype="module"[^>]*\bsrc="\/([^"]+)"|<link\b[^>]*\brel="modulepreload"[^>]*\bhref="\/([^"]+)"/g)];
  const files = tags.map((tag) => tag[1] ?? tag[2] ?? '');
  if (files.length === 0) throw new Error('index.html has no module script: is this a Vite build of src/web?');
  return files;
}

/** The chunk of a manifest entry and every chunk it imports statically, which the browser fetches with it. */
function staticChunks(manifest: Manifest, key: string, into = new Set<string>()) {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`The build's manifest has no module ${key}: update BUDGETED_PAGES to src/web/router.tsx's lazy imports`);
  if (into.has(chunk.file)) return into;
  into.add(chunk.file);
  for (const imported of chunk.imports ?? []) staticChunks(manifest, imported, into);
  return into;
}

/** Measures a build made by buildWebClient: each budgeted page's first-load JavaScript and the build's totals. */
export function measureFirstLoad(outDir: string, pages = BUDGETED_PAGES): FirstLoadReport {
  const manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
  const lazyModules = new Set(Object.values(manifest).flatMap((chunk) => chunk.dynamicImports ?? []));
  const shell = new Set(entryScripts(readFileSync(join(outDir, 'index.html'), 'utf8')));
  staticChunks(manifest, 'index.html', shell);

  const measured = Object.entries(pages).map(([path, modules]) => {
    const files = new Set(shell);
    for (const module of modules) {
      if (!lazyModules.has(module)) throw new Error(`${module} (page ${path}) is not loaded lazily by any chunk of the build`);
      staticChunks(manifest, module, files);
    }
    const sorted = [...files].sort();
    return { path, files: sorted, gzipBytes: sorted.reduce((sum, file) => sum + gzipSize(join(outDir, file)), 0) };
  });

  const built = allFiles(outDir);
  const totalOf = (extension: string) => built.filter((file) => file.endsWith(extension)).reduce((sum, file) => sum + gzipSize(join(outDir, file)), 0);
  return { pages: measured, totalJsGzipBytes: totalOf('.js'), totalCssGzipBytes: totalOf('.css') };
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

/** The pages that load more than their ceiling allows. */
export function pagesOverCeiling(report: FirstLoadReport, ceilings = FIRST_LOAD_CEILINGS) {
  return report.pages.filter(({ path, gzipBytes }) => gzipBytes > (ceilings[path] ?? FIRST_LOAD_TARGET));
}

/** The figures as docs/benchmarks.md quotes them. */
export function formatFirstLoad(report: FirstLoadReport, ceilings = FIRST_LOAD_CEILINGS) {
  const lines = report.pages.map(({ path, files, gzipBytes }) => {
    const ceiling = ceilings[path] ?? FIRST_LOAD_TARGET;
    const verdict = gzipBytes > ceiling ? `OVER its ceiling of ${kB(ceiling)}` : `ceiling ${kB(ceiling)}, target ${kB(FIRST_LOAD_TARGET)}`;
    return `${path.padEnd(8)} ${kB(gzipBytes).padStart(9)} gzip in ${String(files.length).padStart(2)} files (${verdict})`;
  });
  lines.push(`all JavaScript ${kB(report.totalJsGzipBytes)} gzip, all CSS ${kB(report.totalCssGzipBytes)} gzip`);
  return lines.join('\n');
}
