import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

// A classic script written in the page: a <script> without a src attribute.
const INLINE_SCRIPT = /<script\b(?![^>]*\ssrc\s*=)[^>]*>([\s\S]*?)<\/script\s*>/gi;

/** The Content-Security-Policy sources ('sha256-…') that allow exactly the inline scripts of a page's HTML. */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(INLINE_SCRIPT)].map(([, script]) => `'sha256-${createHash('sha256').update(script!, 'utf8').digest('base64')}'`);
}

/**
 * The hashes of the built index.html's inline scripts (the theme applied before the first paint),
 * read at start-up so that the policy can never drift from the page it allows; none before a build.
 */
export function webAppInlineScriptSources(webRoot: string): string[] {
  const indexPath = path.join(webRoot, 'index.html');
  return fs.existsSync(indexPath) ? inlineScriptHashes(fs.readFileSync(indexPath, 'utf8')) : [];
}
