import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

function sourceFiles(folder: string): string[] {
  return readdirSync(path.join(root, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

/**
 * Only the server parses what a tab sends on the realtime socket: a browser module that imported
 * more than the type would build its schema (some thirty zod objects) on every signed-in load
 * (src/common/realtime-client-messages.ts).
 */
describe('the client messages’ schema in the browser', () => {
  it('is imported by the web client as a type only', () => {
    const importers = sourceFiles('src/web').flatMap((file) =>
      [...readFileSync(path.join(root, file), 'utf8').matchAll(/import\s+(type\s+)?[^;]*?from\s+'[^']*common\/realtime-client-messages'/g)].map((match) => ({ file, typeOnly: Boolean(match[1]) })),
    );
    expect(importers.length).toBeGreaterThan(0);
    expect(importers.filter(({ typeOnly }) => !typeOnly)).toEqual([]);
  });
});
