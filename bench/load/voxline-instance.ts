import { makeSignature } from 'better-auth/crypto';
import { buildApp } from '../../src/server/app';
import { createAuth } from '../../src/server/auth/auth';
import { loadConfig } from '../../src/server/config';
import { openDatabase } from '../../src/server/db/client';
import type { Mailer } from '../../src/server/mail/mailer';
import { serveVoxline } from '../media/child-ipc';
import { BENCH_ORIGIN, type BenchUser } from '../media/protocol';
import type { InstanceSettings } from './settings';

const PASSWORD = 'bench password, not a secret';
const SIGN_UP_BATCH = 20;

const noMail: Mailer = { send: async () => {} };
const settings = JSON.parse(process.argv[2] ?? '{}') as InstanceSettings;

/**
 * One Voxline instance under load: the real app as main.ts assembles it, on the embedded database
 * in the bench's temporary `dataDir` or on the PostgreSQL database at `databaseUrl`, with Redis at
 * `redisUrl` when given. The virtual carrier's simulated callers are off, so that every call is
 * the bench's. Users are created here with the auth library, which the per-IP sign-up limit does
 * not see.
 */
async function main() {
  const { databaseUrl, dataDir } = settings;
  if (!databaseUrl && !dataDir) throw new Error('an instance needs a database URL or a data folder');
  const database = databaseUrl ? await openDatabase({ kind: 'postgres', url: databaseUrl }) : await openDatabase({ kind: 'pglite', dataDir: dataDir! });
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
    AUTH_SECRET: settings.secret,
    SIMULATED_INCOMING_RATE: '0',
    // The bench measures what an instance holds, beyond the capacity it is given in production.
    MAX_CALLS_PER_INSTANCE: '1000000',
    ...(dataDir ? { DATA_DIR: dataDir } : {}),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...(settings.redisUrl ? { REDIS_URL: settings.redisUrl } : {}),
    ...(settings.metricsPort ? { METRICS_PORT: String(settings.metricsPort) } : {}),
  });
  const app = await buildApp({ config, database, logger: false, mailer: noMail });
  // A second instance of the auth library on the same database and secret: its sessions are the app's.
  const auth = createAuth({ config, db: database.db, mailer: noMail, secret: settings.secret, log: app.log });
  await app.listen({ host: config.HOST, port: 0 });

  // As better-auth's own test-utils plugin does: the password is hashed once for every user (scrypt
  // takes ~80 ms of a core, 1,200 sign-ups and sign-ins would take minutes), the session is made by
  // the library's adapter and its cookie signed with the app's secret.
  const context = await auth.$context;
  const passwordHash = await context.password.hash(PASSWORD);
  const cookieName = context.authCookies.sessionToken.name;
  const createUser = async (index: number): Promise<BenchUser> => {
    const email = `load-${settings.name}-${index}@voxline.test`;
    const user = await context.internalAdapter.createUser({ name: `Load ${index}`, email, emailVerified: false }, { method: 'email-password' });
    await context.internalAdapter.linkAccount({ userId: user.id, providerId: 'credential', accountId: user.id, password: passwordHash });
    const session = await context.internalAdapter.createSession(user.id);
    const signed = `${session.token}.${await makeSignature(session.token, context.secret)}`;
    return { id: user.id, email, cookie: `${cookieName}=${encodeURIComponent(signed)}` };
  };

  serveVoxline({ app, database, batch: SIGN_UP_BATCH, createUser });
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
