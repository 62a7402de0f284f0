import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** What the built web app is made from: a change to any of these makes dist/web stale. */
const SOURCES = ['src/web', 'src/common', 'src/dsp', 'vite.config.ts', 'scripts/react-on-preact.ts', 'scripts/react-router-production.ts', 'scripts/phone-metadata-as-json.ts', 'package-lock.json'];

function newestChange(entry: string): number {
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const name of fs.readdirSync(entry)) newest = Math.max(newest, newestChange(path.join(entry, name)));
  return newest;
}

/** True when dist/web is missing or older than a file it is built from. */
export function webBuildIsStale(root: string): boolean {
  const built = fs.statSync(path.join(root, 'dist/web/index.html'), { throwIfNoEntry: false });
  if (!built) return true;
  return SOURCES.some((source) => newestChange(path.join(root, source)) > built.mtimeMs);
}

/** Builds the web app as shipped (`npm run build`: vite build, then the compressed copies), throwing when the build fails. */
export function buildWebApp(root: string) {
  const result = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`vite build failed (${result.signal ?? `exit code ${result.status}`})`);
}
