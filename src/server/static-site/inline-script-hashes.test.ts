import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../tests/support/test-app';
import { inlineScriptHashes } from './inline-script-hashes';

const indexHtml = fs.readFileSync(new URL('../../web/index.html', import.meta.url), 'utf8');

/** The inline scripts of src/web/index.html, cut out by hand: the text between their tags, as the browser hashes it. */
function inlineScripts(): string[] {
  const open = '<script>';
  const scripts: string[] = [];
  for (let start = indexHtml.indexOf(open); start !== -1; start = indexHtml.indexOf(open, start)) {
    start += open.length;
    scripts.push(indexHtml.slice(start, indexHtml.indexOf('</script>', start)));
  }
  return scripts;
}

const sha256Source = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

describe('the hashes of inline scripts', () => {
  it("allow the theme script and zod's configuration of index.html, and nothing for a script loaded from a file", () => {
    const [theme, zodConfig] = inlineScripts();
    expect(theme).toContain("localStorage.getItem('theme')");
    expect(zodConfig).toContain('__zod_globalConfig');
    expect(inlineScriptHashes(indexHtml)).toEqual(inlineScripts().map(sha256Source));
    expect(inlineScriptHashes('<script type="module" crossorigin src="/assets/main-abc.js"></script>')).toEqual([]);
  });

  it("are in the served page's script-src, which has no 'unsafe-inline'", async () => {
    const webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'voxline-web-'));
    fs.writeFileSync(path.join(webRoot, 'index.html'), indexHtml);
    const testApp = await buildTestApp({ webRoot });
    try {
      const policy = String((await testApp.app.inject({ method: 'GET', url: '/' })).headers['content-security-policy']);
      const scriptSrc = policy.split(';').find((directive) => directive.trim().startsWith('script-src'));
      expect(scriptSrc?.trim()).toBe(`script-src 'self' ${inlineScripts().map(sha256Source).join(' ')}`);
    } finally {
      await testApp.close();
      fs.rmSync(webRoot, { recursive: true, force: true });
    }
  });
});
