import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { compressWebApp } from '../../scripts/compress-web-app';

const webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'voxline-compress-test-'));
afterAll(() => fs.rmSync(webRoot, { recursive: true, force: true }));

describe('compressWebApp', () => {
  const script = 'export const greeting = "hello";\n'.repeat(100);
  fs.mkdirSync(path.join(webRoot, 'assets'));
  fs.writeFileSync(path.join(webRoot, 'assets/index.js'), script);
  fs.writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html>');
  fs.writeFileSync(path.join(webRoot, 'icon.png'), Buffer.alloc(4096));

  const written = compressWebApp(webRoot);

  it('writes a Brotli and a gzip copy of a text file that decompress to the file', () => {
    expect(brotliDecompressSync(fs.readFileSync(path.join(webRoot, 'assets/index.js.br'))).toString()).toBe(script);
    expect(gunzipSync(fs.readFileSync(path.join(webRoot, 'assets/index.js.gz'))).toString()).toBe(script);
    expect(written).toEqual([{ file: path.join('assets', 'index.js'), bytes: script.length, brotliBytes: expect.any(Number), gzipBytes: expect.any(Number) }]);
    expect(written[0]!.brotliBytes).toBeLessThan(script.length / 10);
  });

  it('leaves files under 1 KiB and files that are not text alone', () => {
    expect(fs.existsSync(path.join(webRoot, 'index.html.br'))).toBe(false);
    expect(fs.existsSync(path.join(webRoot, 'icon.png.br'))).toBe(false);
  });
});
