import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/server/app';
import { createAuth } from '../../src/server/auth/auth';
import { loadConfig } from '../../src/server/config';
import { openDatabase } from '../../src/server/db/client';
import type { Mailer } from '../../src/server/mail/mailer';
import { serveVoxline } from './child-ipc';
import { BENCH_ORIGIN, type BenchUser } from './protocol';

const PASSWORD = 'bench password, not a secret';
// Password hashing runs on libuv's pool; a few at a time keeps it busy without a queue of hundreds.
const SIGN_UP_BATCH = 8;

const noMail: Mailer = { send: async () => {} };
/** The echo's delay in ms, the one argument: 0 measures the server alone, 300 is the sound-test line as shipped. */
const echoDelayMs = Number(process.argv[2] ?? 0);

/**
 * The server under test: the real app as main.ts assembles it, on the embedded database in a
 * temporary DATA_DIR, with the echo answering after the delay given (0 by default: what is measured
 * is then the server's own work).
 * Users are created here with the auth library itself, which the per-IP sign-up limit of the HTTP
 * routes does not see.
 */
async function main() {
  const secret = randomBytes(32).toString('base64url');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'voxline-bench-data-'));
  process.on('exit', () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const database = await openDatabase({ kind: 'pglite', dataDir });
  await database.migrate();
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    HOST: '127.0.0.1',
    PORT: '0',
    PUBLIC_URL: BENCH_ORIGIN,
    // What production requires, though the bench sends no mail (noMail) and runs the built-in providers.
    SMTP_URL: 'smtp://127.0.0.1:1',
    UNSAFE_ALLOW_SANDBOX_PAYMENTS: 'true',
    UNSAFE_ALLOW_LOCAL_TELEPHONY: 'true',
    AUTH_SECRET: secret,
    DATA_DIR: dataDir,
    // The bench measures what an instance holds, beyond the capacity it is given in production.
    MAX_CALLS_PER_INSTANCE: '1000000',
  });
  const app = await buildApp({ config, database, logger: false, mailer: noMail, callTiming: { echoDelayMs } });
  // A second instance of the auth library on the same database and secret: its sessions are the app's.
  const auth = createAuth({ config, db: database.db, mailer: noMail, secret, log: app.log });
  await app.listen({ host: config.HOST, port: 0 });

  const createUser = async (index: number): Promise<BenchUser> => {
    const email = `bench-${index}@voxline.test`;
    const { user } = await auth.api.signUpEmail({ body: { name: `Bench ${index}`, email, password: PASSWORD } });
    const { headers } = await auth.api.signInEmail({ body: { email, password: PASSWORD }, returnHeaders: true });
    const cookie = headers
      .getSetCookie()
      .map((setCookie) => setCookie.split(';')[0])
      .join('; ');
    if (!cookie) throw new Error(`no session cookie for ${email}`);
    return { id: user.id, email, cookie };
  };

  serveVoxline({ app, database, batch: SIGN_UP_BATCH, createUser });
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
