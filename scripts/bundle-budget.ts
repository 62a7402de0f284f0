/**
 * Builds the web client into a temporary folder and prints each budgeted page's first-load
 * JavaScript (gzip -9) and the build's totals; exits 1 when a page loads more than its ceiling.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildWebClient, formatFirstLoad, measureFirstLoad, pagesOverCeiling } from './bundle-budget/first-load';

const outDir = mkdtempSync(join(tmpdir(), 'voxline-bundle-'));
try {
  await buildWebClient(outDir);
  const report = measureFirstLoad(outDir);
  console.log(formatFirstLoad(report));
  if (pagesOverCeiling(report).length > 0) process.exitCode = 1;
} finally {
  rmSync(outDir, { recursive: true, force: true });
}
