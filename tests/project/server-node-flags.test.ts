import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from '../../scripts/server-node-flags.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FLAGS_MODULE = 'scripts/server-node-flags.mjs';

/** Every way the server is started; each passes the flags it reads from FLAGS_MODULE. */
const LAUNCHERS = ['scripts/start.mjs', 'scripts/dev.mjs', 'bench/media/run.ts', 'bench/load/run.ts', 'tests/support/server-process.ts', 'tests/e2e/support/server.ts', 'tests/integration/start-up.test.ts'];

const FLAG_SPELLING = /--(initial-old-space-size|no-allocation-site-pretenuring)\b/;
const SKIPPED = new Set(['node_modules', '.git', 'dist', 'data', 'test-results', 'playwright-report']);

function read(file: string) {
  return readFileSync(join(ROOT, file), 'utf8');
}

/** The repository's code and configuration; prose (Markdown) may quote the flags to explain them. */
function codeFiles(folder = ''): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = folder ? `${folder}/${entry.name}` : entry.name;
    if (SKIPPED.has(entry.name)) return [];
    if (entry.isDirectory()) return codeFiles(path);
    return /\.(ts|tsx|mts|mjs|js|cjs|json|sh)$/.test(entry.name) || folder === '.ci' ? [path] : [];
  });
}

describe('the Node flags of the server (docs/decisions/011-no-allocation-site-pretenuring.md)', () => {
  it('are spelled in one place only', () => {
    const spelling = codeFiles().filter((file) => file !== FLAGS_MODULE && file !== 'package.json' && file !== 'package-lock.json' && FLAG_SPELLING.test(read(file)));
    expect(spelling).toEqual([]);
  });

  it('are read by every launcher', () => {
    for (const launcher of LAUNCHERS) {
      const text = read(launcher);
      expect(text, launcher).toMatch(/from '(\.\.\/)*(scripts\/|\.\/)server-node-flags\.mjs'/);
      expect(text, launcher).toMatch(/\.\.\.SERVER_NODE_FLAGS\b|SERVER_NODE_FLAGS\.join/);
    }
  });

  it('reach npm start through scripts/start.mjs; no other npm script starts the server with flags of its own', () => {
    const { scripts } = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    expect(scripts.start).toBe('node scripts/start.mjs');
    // The flags of bench:load and bench:rolling-upgrade are their load generators' own
    // (bench/load/README.md); their Voxline children get the server's.
    const withFlags = Object.entries(scripts).filter(([, command]) => FLAG_SPELLING.test(command));
    expect(withFlags.map(([name]) => name)).toEqual(['bench:load', 'bench:rolling-upgrade']);
    for (const [, command] of withFlags) expect(command).not.toContain(SERVER_NODE_FLAGS[0]);
  });

  it('are the ones docs/deploy.md tells deployments to start the server with', () => {
    expect(read('docs/deploy.md')).toContain(`node ${SERVER_NODE_FLAGS.join(' ')} --import tsx src/server/main.ts`);
  });
});
