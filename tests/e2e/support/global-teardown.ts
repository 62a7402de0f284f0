import fs from 'node:fs';
import { takeStartedServer } from './global-setup';

/** Stops the server global-setup.ts started (if it started one) and removes its temporary data. */

function isRunning(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export default async function globalTeardown() {
  const keep = process.env.VOXLINE_E2E_KEEP === '1';
  const server = takeStartedServer();
  const pid = Number(process.env.VOXLINE_E2E_SERVER_PID);
  if (!server && !(Number.isInteger(pid) && pid > 0)) return; // a server someone else started
  if (server) {
    await server.stop({ keep });
  } else {
    // Set-up and tear-down normally share a process; if not, stop the server by the pid it published.
    if (isRunning(pid)) {
      process.kill(pid, 'SIGTERM');
      const deadline = Date.now() + 15_000;
      while (isRunning(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      if (isRunning(pid)) process.kill(pid, 'SIGKILL');
    }
    const tempDir = process.env.VOXLINE_E2E_TEMP_DIR;
    if (tempDir && !keep) fs.rmSync(tempDir, { recursive: true, force: true, maxRetries: 3 });
  }
  delete process.env.VOXLINE_E2E_SERVER_PID;
  delete process.env.VOXLINE_E2E_TEMP_DIR;
  delete process.env.VOXLINE_E2E_URL;
}
