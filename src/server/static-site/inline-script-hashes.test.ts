import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../tests/support/test-app';
import { inlineScriptHashes } from './inline-script-hashes';

const indexHtml = fs.readFileSync(new URL('../../web/index.html', import.meta.url), 'utf8');

/** The theme script of src/web/index.html, cut out by hand: the text between its tags, as the browser hashes it. */
function themeScript(): string {
  const open = '<script>';
  const start = indexHtml.indexOf(open) + open.length;
  return indexHtml.slice(start, indexHtml.indexOf('</script>', start));
}

const sha256Source = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

describe('the hashes of inline scripts', () => {
  it('allow the theme script of index.html, and nothing for a script loaded from a file', () => {
    expect(themeScript()).toContain("localStorage.getItem('theme')");
    expect(inlineScriptHashes(indexHtml)).toEqual([sha256Source(themeScript())]);
    expect(inlineScriptHashes('<script type="module" crossorigin src="/assets/main-abc.js"></script>')).toEqual([]);
  });

  it("are in the served page's script-src, which has no 'unsafe-inline'", async () => {
    const webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'voxline-web-'));
    fs.writeFileSync(path.join(webRoot, 'index.html'), indexHtml);
    const testApp = await buildTestApp({ webRoot });
    try {
      const policy = String((await testApp.app.inject({ method: 'GET', url: '/' })).headers['content-security-policy']);
      const scriptSrc = policy.split(';').find((directive) => directive.trim().startsWith('script-src'));
      expect(scriptSrc?.trim()).toBe(`script-src 'self' ${sha256Source(themeScript())}`);
    } finally {
      await testApp.close();
      fs.rmSync(webRoot, { recursive: true, force: true });
    }
  });
});
