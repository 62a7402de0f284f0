import { execSync } from 'node:child_process';
import fs from 'node:fs';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/client';
import { newSignedInUser, TEST_PASSWORD } from '../support/accounts';
import { buildTestApp, type TestApp } from '../support/test-app';
import { capturingMailer, TestBrowser } from '../support/test-browser';
import { createPostgresDatabase } from '../support/test-database';
import { until } from '../support/until';

/*
 * Issue 9: with Redis or PostgreSQL briefly unreachable, requests answer 503 saying what is away,
 * and the service recovers by itself when it returns, losing nothing it had committed. This test
 * really stops and starts the servers, so it runs alone (`npm run test:outage`, which .ci/run
 * runs after `npm test`). By default they are the machine's own, stopped and started as its notes
 * say; OUTAGE_* variables name other servers and the commands that stop and start them.
 */
const MACHINE_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const MACHINE_REDIS_URL = 'redis://127.0.0.1:6379';
const postgresUrl = process.env.OUTAGE_DATABASE_URL ?? MACHINE_POSTGRES_URL;
const redisUrl = process.env.OUTAGE_REDIS_URL ?? MACHINE_REDIS_URL;

/** The machine's newest PostgreSQL cluster `main`, as pg_ctlcluster names it ("15 main"). */
function machineCluster(): string | undefined {
  const versions = fs.existsSync('/etc/postgresql') ? fs.readdirSync('/etc/postgresql') : [];
  const newest = versions.filter((version) => fs.existsSync(`/etc/postgresql/${version}/main`)).sort((a, b) => Number(a) - Number(b)).at(-1);
  return newest && `${newest} main`;
}
const cluster = machineCluster();
const machineCommands = {
  OUTAGE_POSTGRES_STOP: cluster && `pg_ctlcluster --skip-systemctl-redirect ${cluster} stop -m fast`,
  OUTAGE_POSTGRES_START: cluster && `pg_ctlcluster --skip-systemctl-redirect ${cluster} start`,
  OUTAGE_REDIS_STOP: 'redis-cli -h 127.0.0.1 -p 6379 shutdown nosave',
  OUTAGE_REDIS_START:
    'redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log',
};
type CommandName = keyof typeof machineCommands;
const command = (name: CommandName) => process.env[name] ?? machineCommands[name];

function run(name: CommandName) {
  execSync(command(name)!, { shell: '/bin/bash', stdio: 'pipe', timeout: 30_000 });
}

async function postgresAnswers(): Promise<boolean> {
  const client = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: 1_000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function redisAnswers(): Promise<boolean> {
  const client = new Redis(redisUrl, { lazyConnect: true, connectTimeout: 1_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => {});
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

const servers = {
  postgres: { stop: 'OUTAGE_POSTGRES_STOP', start: 'OUTAGE_POSTGRES_START', answers: postgresAnswers },
  redis: { stop: 'OUTAGE_REDIS_STOP', start: 'OUTAGE_REDIS_START', answers: redisAnswers },
} as const;
type Server = keyof typeof servers;

async function stop(server: Server) {
  run(servers[server].stop);
  await until(async () => !(await servers[server].answers()), 15_000);
}

async function start(server: Server) {
  run(servers[server].start);
  await until(() => servers[server].answers(), 30_000);
}

/** Why this machine cannot run the test, or null when it can. */
async function whyNotRunnable(): Promise<string | null> {
  const targets = [
    { variable: 'OUTAGE_DATABASE_URL', url: postgresUrl, machineUrl: MACHINE_POSTGRES_URL, commands: ['OUTAGE_POSTGRES_STOP', 'OUTAGE_POSTGRES_START'] },
    { variable: 'OUTAGE_REDIS_URL', url: redisUrl, machineUrl: MACHINE_REDIS_URL, commands: ['OUTAGE_REDIS_STOP', 'OUTAGE_REDIS_START'] },
  ];
  for (const { variable, url, machineUrl, commands } of targets) {
    const missing = commands.filter((name) => !process.env[name]);
    if (url !== machineUrl && missing.length > 0) return `${variable} names another server: set ${missing.join(' and ')} to say how to stop and start it`;
  }
  for (const name of Object.keys(machineCommands) as CommandName[]) {
    const given = command(name);
    if (!given) return `no PostgreSQL cluster "main" in /etc/postgresql; set ${name}`;
    const program = given.trim().split(/\s+/)[0]!;
    try {
      execSync(`command -v ${program}`, { shell: '/bin/bash', stdio: 'ignore' });
    } catch {
      return `${name} runs ${program}, which is not installed`;
    }
    if (!process.env[name] && process.getuid?.() !== 0) return `the machine's ${name} needs root`;
  }
  if (!(await postgresAnswers())) return `PostgreSQL does not answer at ${postgresUrl}`;
  if (!(await redisAnswers())) return `Redis does not answer at ${redisUrl}`;
  return null;
}

const skipReason = await whyNotRunnable();
if (skipReason) console.warn(`outage test skipped: ${skipReason}`);

const contactNames = (response: { json(): { contacts: { name: string }[] } }) => response.json().contacts.map((contact) => contact.name);

describe.skipIf(skipReason !== null)('Redis and PostgreSQL stopped and started again under a running Voxline', () => {
  let testApp: TestApp;
  let database: DatabaseHandle;
  let dropDatabase: () => Promise<void>;
  // The app runs in this process: anything it leaves unhandled during an outage lands here.
  const unhandled: string[] = [];
  const recordUnhandled = (error: unknown) => unhandled.push(error instanceof Error ? (error.stack ?? error.message) : String(error));
  const health = () => testApp.app.inject({ method: 'GET', url: '/api/v1/health' });

  beforeAll(async () => {
    process.on('unhandledRejection', recordUnhandled);
    process.on('uncaughtException', recordUnhandled);
    const created = await createPostgresDatabase(postgresUrl);
    dropDatabase = created.drop;
    database = await openDatabase({ kind: 'postgres', url: created.url });
    await database.migrate();
    testApp = await buildTestApp({ env: { REDIS_URL: redisUrl }, database, mailer: capturingMailer() });
    await testApp.app.ready();
  });

  afterEach(() => {
    expect(unhandled, 'errors the app left unhandled').toEqual([]);
  });

  afterAll(async () => {
    // Whatever happened, the servers are left running for whoever uses them next.
    for (const server of Object.keys(servers) as Server[]) {
      if (!(await servers[server].answers())) await start(server);
    }
    await testApp?.close();
    await database?.close();
    await dropDatabase?.();
    process.off('unhandledRejection', recordUnhandled);
    process.off('uncaughtException', recordUnhandled);
  });

  it('answers 503 naming Redis where Redis is needed, serves the rest, and recovers by itself', async () => {
    const user = await newSignedInUser(testApp.app, 'Ada Outage');
    // Sign-in is rate limited, and the limits are shared through Redis: it cannot be let through.
    const signIn = () => new TestBrowser(testApp.app).post('/api/v1/auth/sign-in', { email: user.email, password: TEST_PASSWORD });

    await stop('redis');
    try {
      const refused = await signIn();
      expect(refused.statusCode).toBe(503);
      expect(refused.json()).toEqual({
        error: { code: 'redis_unavailable', message: 'The shared store (Redis) is unavailable right now. Please try again shortly.' },
      });
      // What needs only the database goes on, writes included.
      const added = await user.browser.post('/api/v1/contacts', { name: 'Written Without Redis', phoneNumber: '+14155552671' });
      expect(added.statusCode, added.body).toBe(201);
      const contacts = await user.browser.get('/api/v1/contacts');
      expect(contacts.statusCode).toBe(200);
      expect(contactNames(contacts)).toEqual(['Written Without Redis']);
      // Degraded, yet still 200: every instance shares the one Redis, so draining this one helps nothing.
      const degraded = await health();
      expect(degraded.statusCode).toBe(200);
      expect(degraded.json()).toEqual({ status: 'degraded', database: { driver: 'postgres', state: 'up' }, redis: { state: 'down' } });
    } finally {
      await start('redis');
    }

    await until(async () => (await signIn()).statusCode === 200, 20_000);
    expect((await health()).json()).toEqual({ status: 'ok', database: { driver: 'postgres', state: 'up' }, redis: { state: 'up' } });
  });

  it('answers 503 naming the database while PostgreSQL is away, recovers by itself, and keeps what it had committed', async () => {
    const user = await newSignedInUser(testApp.app, 'Bob Outage');
    const committed = ['Kept Alpha', 'Kept Bravo', 'Kept Charlie'];
    for (const [index, name] of committed.entries()) {
      const added = await user.browser.post('/api/v1/contacts', { name, phoneNumber: `+1415555267${index}` });
      expect(added.statusCode, added.body).toBe(201);
    }
    const databaseUnavailable = {
      error: { code: 'database_unavailable', message: 'The database is unavailable right now. Please try again shortly.' },
    };

    await stop('postgres');
    try {
      const read = await user.browser.get('/api/v1/contacts');
      expect(read.statusCode).toBe(503);
      expect(read.json()).toEqual(databaseUnavailable);
      const write = await user.browser.post('/api/v1/contacts', { name: 'Never Written', phoneNumber: '+14155552679' });
      expect(write.statusCode).toBe(503);
      expect(write.json()).toEqual(databaseUnavailable);
      const signIn = await new TestBrowser(testApp.app).post('/api/v1/auth/sign-in', { email: user.email, password: TEST_PASSWORD });
      expect(signIn.statusCode).toBe(503);
      expect(signIn.json()).toEqual(databaseUnavailable);
      const down = await health();
      expect(down.statusCode).toBe(503);
      expect(down.json()).toEqual({ status: 'degraded', database: { driver: 'postgres', state: 'down' }, redis: { state: 'up' } });
    } finally {
      await start('postgres');
    }

    await until(async () => (await user.browser.get('/api/v1/contacts')).statusCode === 200, 30_000);
    expect(contactNames(await user.browser.get('/api/v1/contacts'))).toEqual(committed);
    const again = await new TestBrowser(testApp.app).post('/api/v1/auth/sign-in', { email: user.email, password: TEST_PASSWORD });
    expect(again.statusCode, again.body).toBe(200);
    const healthy = await health();
    expect(healthy.statusCode).toBe(200);
    expect(healthy.json()).toEqual({ status: 'ok', database: { driver: 'postgres', state: 'up' }, redis: { state: 'up' } });
  });
});
