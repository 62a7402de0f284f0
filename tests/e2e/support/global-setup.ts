import fs from 'node:fs';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { startServer, type StartedServer } from './server';

/**
 * Starts one Voxline server for the whole run and publishes its URL as VOXLINE_E2E_URL, which the
 * workers inherit (they start after global setup) and tests/e2e/fixtures.ts turns into baseURL.
 *
 * Set VOXLINE_E2E_URL yourself to run the suite against a server you started instead.
 * VOXLINE_E2E_SERVER_LOG=1 echoes the server's log; VOXLINE_E2E_KEEP=1 keeps its data and log.
 */

const SERVER_KEY = Symbol.for('voxline.e2e.server');

export function takeStartedServer(): StartedServer | undefined {
  const holder = globalThis as { [SERVER_KEY]?: StartedServer };
  const server = holder[SERVER_KEY];
  delete holder[SERVER_KEY];
  return server;
}

export default async function globalSetup(config: FullConfig) {
  if (process.env.VOXLINE_E2E_URL) {
    process.stderr.write(`[voxline e2e] using the server at ${process.env.VOXLINE_E2E_URL} (VOXLINE_E2E_URL is set)\n`);
    return;
  }
  const root = config.configFile ? path.dirname(config.configFile) : process.cwd();
  if (!fs.existsSync(path.join(root, 'dist/web/index.html'))) {
    process.stderr.write('[voxline e2e] warning: dist/web is not built, so pages answer 503; run `npm run build` (npm run test:e2e does)\n');
  }
  const server = await startServer({ root, echo: process.env.VOXLINE_E2E_SERVER_LOG === '1' });
  (globalThis as { [SERVER_KEY]?: StartedServer })[SERVER_KEY] = server;
  process.env.VOXLINE_E2E_URL = server.url;
  process.env.VOXLINE_E2E_SERVER_PID = String(server.pid);
  process.env.VOXLINE_E2E_TEMP_DIR = server.tempDir;
  process.stderr.write(`[voxline e2e] server ready at ${server.url} (pid ${server.pid}, log ${server.logFile})\n`);
}
