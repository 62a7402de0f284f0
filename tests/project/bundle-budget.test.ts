import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWebClient, formatFirstLoad, measureFirstLoad, pagesOverCeiling } from '../../scripts/bundle-budget/first-load';

const folders: string[] = [];

function temporaryFolder() {
  const folder = mkdtempSync(join(tmpdir(), 'voxline-bundle-test-'));
  folders.push(folder);
  return folder;
}

afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A build of a few files, each 'x' repeated its size times, to prove the measure on small inputs. */
function smallBuild(sizes: Record<string, number>) {
  const outDir = temporaryFolder();
  const files: Record<string, string> = {
    'index.html':
      '<script type="module" crossorigin src="/assets/index.js"></script>\n<link rel="modulepreload" crossorigin href="/assets/react.js">\n<link rel="stylesheet" href="/assets/index.css">',
    '.vite/manifest.json': JSON.stringify({
      'index.html': { file: 'assets/index.js', isEntry: true, imports: ['_react.js'], dynamicImports: ['pages/home.tsx', 'pages/dialer.tsx'] },
      '_react.js': { file: 'assets/react.js' },
      '_shared.js': { file: 'assets/shared.js', imports: ['_react.js'] },
      'pages/home.tsx': { file: 'assets/home.js', isDynamicEntry: true, imports: ['_shared.js'], dynamicImports: ['pages/qr-code.tsx'] },
      'pages/dialer.tsx': { file: 'assets/dialer.js', isDynamicEntry: true, imports: ['_shared.js', '_react.js'] },
      'pages/qr-code.tsx': { file: 'assets/qr-code.js', isDynamicEntry: true },
    }),
    ...Object.fromEntries(Object.entries(sizes).map(([file, size]) => [file, 'x'.repeat(size)])),
  };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(outDir, file)), { recursive: true });
    writeFileSync(join(outDir, file), text);
  }
  return outDir;
}

const SMALL_FILES = ['index.js', 'react.js', 'shared.js', 'home.js', 'dialer.js', 'qr-code.js'];

describe('the first-load measure', () => {
  it("counts the entry, its modulepreloads and the route's chunk with its static imports, each once", () => {
    const outDir = smallBuild({ ...Object.fromEntries(SMALL_FILES.map((file) => [`assets/${file}`, 100])), 'assets/index.css': 100 });
    const report = measureFirstLoad(outDir, { '/': ['pages/home.tsx'], '/dialer': ['pages/dialer.tsx'] });

    expect(report.pages.map(({ path, files }) => ({ path, files }))).toEqual([
      { path: '/', files: ['assets/home.js', 'assets/index.js', 'assets/react.js', 'assets/shared.js'] },
      { path: '/dialer', files: ['assets/dialer.js', 'assets/index.js', 'assets/react.js', 'assets/shared.js'] },
    ]);
    const oneFile = report.totalCssGzipBytes;
    expect(report.pages[0]?.gzipBytes).toBe(4 * oneFile);
    expect(report.totalJsGzipBytes).toBe(SMALL_FILES.length * oneFile);
  });

  it('names a page module that the build does not load lazily', () => {
    const outDir = smallBuild(Object.fromEntries(SMALL_FILES.map((file) => [`assets/${file}`, 10])));
    expect(() => measureFirstLoad(outDir, { '/shared': ['_shared.js'] })).toThrow('_shared.js (page /shared) is not loaded lazily by any chunk of the build');
    expect(() => measureFirstLoad(outDir, { '/gone': ['pages/gone.tsx'] })).toThrow('is not loaded lazily');
  });

  it('tells a page over its ceiling from one under it', () => {
    const report = { pages: [{ path: '/', files: [], gzipBytes: 90_000 }, { path: '/auth', files: [], gzipBytes: 130_000 }], totalJsGzipBytes: 0, totalCssGzipBytes: 0 };
    expect(pagesOverCeiling(report, { '/': 100_000, '/auth': 120_000 }).map(({ path }) => path)).toEqual(['/auth']);
    expect(formatFirstLoad(report, { '/': 100_000, '/auth': 120_000 })).toContain('/auth     130.0 kB gzip in  0 files (OVER its ceiling of 120.0 kB)');
  });
});

describe('the first load of the production build (docs/decisions/021-first-load-budget.md)', () => {
  let outDir = '';

  beforeAll(async () => {
    outDir = temporaryFolder();
    await buildWebClient(outDir);
  }, 180_000);

  it('keeps every budgeted page within its ceiling', () => {
    const report = measureFirstLoad(outDir);
    expect(pagesOverCeiling(report), formatFirstLoad(report)).toEqual([]);
  });
});
