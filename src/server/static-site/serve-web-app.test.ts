import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../tests/support/test-app';
import { isServerPath } from '../../common/server-paths';

let webRoot: string;
let testApp: TestApp;
const routeUrls: string[] = [];

beforeAll(async () => {
  webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'voxline-web-'));
  fs.mkdirSync(path.join(webRoot, 'assets'));
  fs.writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>unlimited calls everywhere</title>');
  fs.writeFileSync(path.join(webRoot, 'assets', 'main-abc123.js'), 'console.log(1)');
  fs.writeFileSync(path.join(webRoot, 'sw.js'), 'self.addEventListener("fetch", () => {})');
  fs.writeFileSync(path.join(webRoot, 'manifest.webmanifest'), '{"name":"Voxline"}');
  fs.writeFileSync(path.join(webRoot, 'offline.html'), '<!doctype html><title>You are offline</title>');
  // As `npm run build` leaves them (scripts/compress-web-app.ts).
  fs.writeFileSync(path.join(webRoot, 'assets', 'main-abc123.js.br'), brotliCompressSync('console.log(1)'));
  fs.writeFileSync(path.join(webRoot, 'assets', 'main-abc123.js.gz'), gzipSync('console.log(1)'));
  fs.writeFileSync(path.join(webRoot, 'sw.js.br'), brotliCompressSync('self.addEventListener("fetch", () => {})'));
  testApp = await buildTestApp({ webRoot, onRoute: (route) => routeUrls.push(route.url) });
  await testApp.app.ready();
});

afterAll(async () => {
  await testApp.close();
  fs.rmSync(webRoot, { recursive: true, force: true });
});

describe('serving the web app', () => {
  it('answers deep links with index.html so the SPA can route them', async () => {
    for (const url of ['/', '/dialer', '/settings?tab=subscription', '/no-such-page']) {
      const response = await testApp.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toContain('unlimited calls everywhere');
    }
  });

  it('serves hashed assets with a long cache life', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/assets/main-abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('has the browser revalidate the service worker, the manifest and the pages, whose names never change', async () => {
    const expected = {
      '/sw.js': 'javascript',
      '/manifest.webmanifest': 'application/manifest+json',
      '/offline.html': 'text/html',
      '/index.html': 'text/html',
    };
    for (const [url, contentType] of Object.entries(expected)) {
      const response = await testApp.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toContain(contentType);
      expect(response.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it("keeps every path the server answers itself out of the service worker's reach", async () => {
    const builtFiles = new Set(fs.readdirSync(webRoot, { recursive: true, encoding: 'utf8' }).map((file) => `/${file.split(path.sep).join('/')}`));
    const serverPaths = routeUrls.filter((url) => !builtFiles.has(url));
    expect(serverPaths).toEqual(expect.arrayContaining(['/api/v1/session', '/functions/v1/vonage-phone', '/sandbox/checkout/:reference', '/dev/outbox']));
    expect(serverPaths.filter((url) => !isServerPath(url))).toEqual([]);
  });

  it('sends the compressed copy a browser accepts, with the headers of the file itself', async () => {
    const brotli = await testApp.app.inject({ method: 'GET', url: '/assets/main-abc123.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toContain('accept-encoding');
    expect(brotli.headers['content-type']).toContain('javascript');
    expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe('console.log(1)');

    const gzip = await testApp.app.inject({ method: 'GET', url: '/assets/main-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe('console.log(1)');

    const plain = await testApp.app.inject({ method: 'GET', url: '/assets/main-abc123.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log(1)');

    const serviceWorker = await testApp.app.inject({ method: 'GET', url: '/sw.js', headers: { 'accept-encoding': 'br' } });
    expect(serviceWorker.headers['content-encoding']).toBe('br');
    expect(serviceWorker.headers['cache-control']).toBe('no-cache');
  });

  it('keeps unknown API paths, missing build assets and non-GET requests as JSON 404s', async () => {
    const api = await testApp.app.inject({ method: 'GET', url: '/api/v1/unknown' });
    expect(api.statusCode).toBe(404);
    expect(api.json().error.code).toBe('not_found');
    const missingChunk = await testApp.app.inject({ method: 'GET', url: '/assets/page-of-another-release.js' });
    expect(missingChunk.statusCode).toBe(404);
    expect(missingChunk.json().error.code).toBe('not_found');
    const post = await testApp.app.inject({ method: 'POST', url: '/dialer' });
    expect(post.statusCode).toBe(404);
    expect(post.json().error.code).toBe('not_found');
  });

  it('sends security headers', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/' });
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
  });
});
