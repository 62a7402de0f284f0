import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { createDatabase } from '../load/bench-database';
import { inParallel } from '../load/in-parallel';
import type { InstanceSettings } from '../load/settings';
import { numberPattern, VoxlineUser } from '../load/voxline-user';
import { sleep } from '../media/load';
import { ServerProcess } from '../media/server-process';
import { Balancer } from './balancer';
import { CallStream } from './call-stream';
import { callsHeldThrough, gapMoments, tallyCalls } from './call-tally';
import { LoadWatch } from './load-watch';
import { MovingTab } from './moving-tab';
import { readOptions, type Options } from './options';
import { reportLines, runProblems, summariseTabs, type InstanceEnd, type LoadContext } from './report';
import { readyBehind, replace, startVoxline, type SharedSettings, type VoxlineInstance } from './voxline-instances';

/**
 * bench/rolling-upgrade (issue 23): two Voxline instances on PostgreSQL and Redis behind a small
 * balancer, listening tabs and a steady stream of calls with audio both ways through it, and a
 * rolling upgrade of both instances under that load: does any call drop? See README.md.
 */

// docs/deploy.md#the-load-balancer: a poll every 1–5 s and a timeout of 2 s; the bench polls faster.
const POLL_MS = 500;
const POLL_TIMEOUT_MS = 2_000;
const RENT_CONCURRENCY = 8;
const TAB_CONCURRENCY = 20;
const READY_LIMIT_MS = 60_000;
/** After the last old instance has gone, the load goes on at least this long on the replacements alone. */
const AFTER_UPGRADE_MS = 10_000;
const PROGRESS_EVERY_MS = 10_000;
/** A caller rests between calls: the stream has twice as many callers as calls. */
const CALLERS_PER_CALL = 2;
/** What an instance that exited badly printed last. */
const OUTPUT_LINES = 20;

const began = performance.now();
function progress(message: string) {
  console.log(`[${((performance.now() - began) / 1000).toFixed(1).padStart(6)} s] ${message}`);
}

/** Everything the run starts, so that a failure anywhere can still tear it all down. */
class Teardown {
  database: { drop: () => Promise<void> } | null = null;
  helper: ServerProcess | null = null;
  balancer: Balancer | null = null;
  readonly instances: VoxlineInstance[] = [];
  readonly tabs: MovingTab[] = [];

  /** After a failure: kills at once, then drops the database. */
  async abort() {
    for (const tab of this.tabs) tab.stop();
    this.helper?.kill();
    await Promise.all(this.instances.map((instance) => instance.process.stop('SIGKILL')));
    await this.balancer?.close();
    await this.database?.drop().catch((error: unknown) => console.error(`could not drop the bench database: ${String(error)}`));
  }
}

async function run(options: Options, teardown: Teardown): Promise<string[]> {
  const database = await createDatabase(options.postgresUrl);
  teardown.database = database;
  const secret = randomBytes(32).toString('base64url');
  const shared: SharedSettings = { databaseUrl: database.url, redisUrl: options.redisUrl, secret, drainSeconds: options.drainSeconds };
  const instances = teardown.instances;
  const balancer = new Balancer({
    pollMs: POLL_MS,
    pollTimeoutMs: POLL_TIMEOUT_MS,
    onChange: (upstream) => {
      progress(`balancer: ${upstream.name} ${upstream.ready ? 'ready' : 'not ready'}`);
      const instance = instances.find((candidate) => candidate.name === upstream.name);
      if (instance && upstream.ready) instance.readyAt ??= performance.now();
      if (instance && !upstream.ready && instance.sigtermAt !== null) instance.unreadyAt ??= performance.now();
    },
  });
  teardown.balancer = balancer;
  const baseUrl = `http://127.0.0.1:${await balancer.listen()}`;
  const realtimeUrl = `${baseUrl.replace(/^http/, 'ws')}/api/v1/realtime`;

  progress(`database ${database.name} created; making the users in bench/load's voxline-instance.ts, starting Voxline 1 and 2 (src/server/main.ts, DRAIN_SECONDS=${options.drainSeconds})`);
  const helperSettings: InstanceSettings = { name: 'rolling', secret, databaseUrl: database.url, redisUrl: options.redisUrl };
  // It migrates the new database before the instances start, so that they find it done.
  const helper = await ServerProcess.start('user maker', '../load/voxline-instance.ts', { args: [JSON.stringify(helperSettings)] });
  teardown.helper = helper;
  const started = (instance: VoxlineInstance) => {
    instances.push(instance);
    return instance;
  };
  const [users, first, second] = await Promise.all([
    helper.createUsers(options.listeners + options.calls * CALLERS_PER_CALL),
    startVoxline('Voxline 1', shared, balancer).then(started),
    startVoxline('Voxline 2', shared, balancer).then(started),
  ]);
  await helper.stop();
  teardown.helper = null;
  await Promise.all([first, second].map((instance) => readyBehind(balancer, instance.name, READY_LIMIT_MS)));

  const callees = users.slice(0, options.listeners).map((user) => new VoxlineUser(user));
  const callers = users.slice(options.listeners).map((user) => new VoxlineUser(user));
  progress(`${users.length} users made; renting their numbers through the balancer`);
  await inParallel([...callees, ...callers], RENT_CONCURRENCY, (user, index) => user.rentNumber(baseUrl, numberPattern(index)));
  const tabs = callees.map((callee) => new MovingTab(realtimeUrl, callee));
  teardown.tabs.push(...tabs);
  await inParallel(tabs, TAB_CONCURRENCY, (tab) => tab.start());
  const where = () => instances.filter((instance) => instance.exitedAt === null).map((instance) => `${instance.name} ${balancer.websockets(instance.name)}`).join(', ');
  progress(`${tabs.length} tabs listening (websockets: ${where()}); placing calls, ${options.calls} at a time, ${options.minCallSeconds}–${options.maxCallSeconds} s each`);

  const stream = new CallStream({ baseUrl, calls: options.calls, minCallMs: options.minCallSeconds * 1000, maxCallMs: options.maxCallSeconds * 1000 }, callers, tabs);
  const loadStartedAt = performance.now();
  const watch = new LoadWatch(loadStartedAt);
  stream.start();
  const listening = () => tabs.filter((tab) => !tab.unreachable.unreachable).length;
  const ticker = setInterval(() => progress(`${stream.up} calls under way, ${stream.observations.length} placed so far; ${listening()} tabs reachable; websockets: ${where()}`), PROGRESS_EVERY_MS);
  try {
    await sleep(options.upgradeAfter * 1000);
    for (const [old, name] of [[first, 'Voxline 1b'], [second, 'Voxline 2b']] as const) {
      progress(`SIGTERM to ${old.name} (${balancer.websockets(old.name)} websockets on it); starting ${name}`);
      const replacement = await replace(old, name, { shared, balancer, readyLimitMs: READY_LIMIT_MS, started });
      progress(`${old.name} exited with ${old.exitCode} after ${((old.exitedAt! - old.sigtermAt!) / 1000).toFixed(1)} s; ${name} was ready after ${((replacement.readyAt! - replacement.startedAt) / 1000).toFixed(1)} s`);
    }
    await sleep(Math.max(AFTER_UPGRADE_MS, loadStartedAt + options.seconds * 1000 - performance.now()));
    progress(`upgrade done; ending the ${stream.up} calls under way (their callers hang up)`);
    await stream.stop();
  } finally {
    clearInterval(ticker);
  }
  const loadEndedAt = performance.now();
  const cpuPercent = watch.stop();
  const tabFigures = tabs.map((tab) => ({
    drains: tab.drains,
    drainedAgain: tab.drainedAgain,
    refusedListening: tab.refusedListening,
    cutOff: tab.cutOff,
    failedConnections: tab.failedConnections,
    unreachableMs: tab.unreachable.totalMs,
    longestUnreachableMs: tab.unreachable.longestMs,
    unreachableAtEnd: tab.unreachable.unreachable,
  }));
  for (const tab of tabs) tab.stop();

  // The replacements, with no call up, drain at once and exit.
  const replacements = instances.filter((instance) => instance.sigtermAt === null);
  for (const instance of replacements) instance.sigtermAt = performance.now();
  await Promise.all(replacements.map((instance) => instance.process.stop('SIGTERM')));
  await balancer.close();
  teardown.balancer = null;
  await database.drop();
  teardown.database = null;

  const tally = tallyCalls(stream.observations);
  const tabsSummary = summariseTabs(tabFigures);
  const ends: InstanceEnd[] = instances
    .map(({ name, startedAt, readyAt, sigtermAt, unreadyAt, exitedAt, exitCode }) => ({
      name,
      readyAfterMs: readyAt === null ? null : readyAt - startedAt,
      sigtermAt,
      unreadyAt,
      exitedAt,
      exitCode,
      heldAtSigterm: callsHeldThrough(stream.observations, name, sigtermAt ?? Number.POSITIVE_INFINITY),
    }))
    .sort((a, b) => (a.sigtermAt ?? 0) - (b.sigtermAt ?? 0) || a.name.localeCompare(b.name));
  console.log('');
  console.log(
    `Rolling upgrade of two Voxline instances behind a balancer (readiness polled every ${POLL_MS} ms), ${new Date().toISOString()}: ` +
      `${options.listeners} listening tabs, ${options.calls} calls kept up (${options.minCallSeconds}–${options.maxCallSeconds} s each, 640-byte 20 ms PCM frames both ways), ` +
      `first SIGTERM ${options.upgradeAfter} s into a load of ${((loadEndedAt - loadStartedAt) / 1000).toFixed(0)} s, DRAIN_SECONDS=${options.drainSeconds}`,
  );
  console.log(`${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, Node ${process.versions.node}`);
  console.log('');
  const context: LoadContext = {
    gaps: gapMoments(stream.observations, loadStartedAt),
    longestStallMs: watch.longestStallMs,
    stalls: watch.stalls,
    cpuPercent,
    saturatedSeconds: watch.saturatedSeconds,
    watchedSeconds: watch.watchedSeconds,
  };
  for (const line of reportLines(tally, tabsSummary, ends, loadStartedAt, context)) console.log(`- ${line}`);
  for (const why of [...new Set(tally.dropped)].slice(0, 5)) console.log(`  dropped: ${why}`);
  for (const instance of instances.filter((candidate) => candidate.exitCode !== 0)) {
    console.log(`\n${instance.name}'s last output:\n${instance.process.output.join('').split('\n').slice(-OUTPUT_LINES).join('\n')}`);
  }
  return runProblems(tally, ends, tabsSummary);
}

async function main() {
  let options: Options;
  try {
    options = readOptions(process.argv.slice(2));
  } catch (error) {
    console.error(`bench/rolling-upgrade: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  }
  const teardown = new Teardown();
  const fail = (error: unknown) => {
    console.error(`bench/rolling-upgrade failed: ${error instanceof Error ? error.message : String(error)}`);
    void teardown.abort().finally(() => process.exit(1));
  };
  // Bounded in time whatever happens: set-up, the load, two drains, the shutdowns.
  const budgetMs = (180 + options.upgradeAfter + options.seconds + 2 * (options.drainSeconds + 60) + 60) * 1000;
  setTimeout(() => fail(new Error(`took longer than ${Math.round(budgetMs / 1000)} s`)), budgetMs).unref();
  try {
    const problems = await run(options, teardown);
    if (problems.length > 0) {
      console.error(`\nbench/rolling-upgrade: ${problems.join('; ')}`);
      process.exit(1);
    }
    console.log('\nNo call dropped.');
    process.exit(0);
  } catch (error) {
    fail(error);
  }
}

void main();
