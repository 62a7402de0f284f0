import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type WebSocket from 'ws';
import { FRAME_MS, WIDEBAND_RATE } from '../../src/common/calls';
import { socketCodecs, type SocketCodec } from '../../src/common/media';
import { announcementSound } from '../../src/server/recordings/recording-announcement';
import type { VoiceSettings } from '../../src/common/voice';
import { openMediaSocket, percentile, sleep } from '../media/load';
import { cpuBusyPercent, readCpuTimes, type CpuTimes } from '../media/machine-load';
import { EFFECT_VOICE, type BenchUser, type ServerUsage } from '../media/protocol';
import { pinToCpu, ServerProcess } from '../media/server-process';
import { createDatabase } from './bench-database';
import { inParallel } from './in-parallel';
import { runOneWay, type CallMedia, type OneWayResult } from './one-way';
import { childProcessesCpuMs, cpuMsBetween, processCpuMs } from './process-cpu';
import { recordedBytes } from './recorded-bytes';
import { SERVER_NODE_FLAGS } from '../../scripts/server-node-flags.mjs';
import type { InstanceSettings } from './settings';
import { ListeningTab, numberPattern, VoxlineUser } from './voxline-user';

/**
 * bench/load (issue 9): signed-in listening tabs and calls between Voxline users with audio both
 * ways, on one instance with the embedded database, then on two instances sharing PostgreSQL and
 * Redis (the callees' tabs on the first, the calls placed on the second), each timed frame by
 * frame one way against a bare `ws` relay. See README.md and docs/benchmarks.md.
 */

const TARGET = { listeners: 1000, calls: 200, p99AddedMs: 20 };
const LIMITS = { listeners: 2000, calls: 500, seconds: 300, warmup: 30, baselineSeconds: 120 };
const DRAIN_MS = 2_000;
// Calls are set up a few at a time: each must connect its audio within the server's media timeout.
const CALL_SETUP_CONCURRENCY = 10;
const TAB_CONCURRENCY = 20;
const RENT_CONCURRENCY = 8;
// The beeps a callee hears when the caller's recording starts, in 20 ms frames (calls between Voxline users have no spoken notice).
const ANNOUNCEMENT_FRAMES = Math.ceil(announcementSound(WIDEBAND_RATE, false).length / ((WIDEBAND_RATE * FRAME_MS) / 1000));
const LOAD_CPU = 0;
const SERVER_CPU = 1;

const began = Date.now();
function progress(message: string) {
  console.log(`[${((Date.now() - began) / 1000).toFixed(1).padStart(6)} s] ${message}`);
}

type ModeName = 'single' | 'two';

interface Options {
  listeners: number;
  calls: number;
  seconds: number;
  warmup: number;
  baselineSeconds: number;
  modes: ModeName[];
  postgresUrl: string;
  redisUrl: string;
  pin: boolean;
  /** Where the Voxline instances write V8 CPU profiles of their whole run, if anywhere. */
  profileDir: string | null;
  /** Node/V8 options the Voxline instances and the bare relay start with. */
  instanceFlags: string[];
  /** What the media sockets carry. */
  codec: SocketCodec;
  /** The callers' voice: an effect with Opus (unless --no-voice), the normal voice with PCM, whose stamps an effect would erase. */
  voice: VoiceSettings | null;
  /** The METRICS_PORT of a mode's first and second instance, if given (bench:dashboard scrapes them). */
  metricsPorts: number[];
  /** Every call recorded by its caller (issue 19): the users on Premium, the callers' "Record calls" on. */
  record: boolean;
}

function readOptions(): Options {
  const { values } = parseArgs({
    options: {
      listeners: { type: 'string', default: String(TARGET.listeners) },
      calls: { type: 'string', default: String(TARGET.calls) },
      seconds: { type: 'string', default: '60' },
      warmup: { type: 'string', default: '2' },
      'baseline-seconds': { type: 'string', default: '20' },
      mode: { type: 'string', default: 'both' },
      'postgres-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
      'redis-url': { type: 'string', default: 'redis://127.0.0.1:6379' },
      pin: { type: 'boolean', default: false },
      'cpu-prof': { type: 'boolean', default: false },
      'instance-flags': { type: 'string', default: SERVER_NODE_FLAGS.join(' ') },
      codec: { type: 'string', default: 'pcm' },
      'no-voice': { type: 'boolean', default: false },
      'metrics-ports': { type: 'string', default: '' },
      record: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const whole = (name: string, text: string, min: number, max: number) => {
    const value = Number(text);
    if (!Number.isInteger(value) || value < min || value > max) throw new Error(`--${name} must be a whole number from ${min} to ${max} (got "${text}")`);
    return value;
  };
  const modes: Record<string, ModeName[]> = { both: ['single', 'two'], single: ['single'], two: ['two'] };
  const chosen = modes[values.mode];
  if (!chosen) throw new Error(`--mode must be both, single or two (got "${values.mode}")`);
  const loopback = (name: string, url: string) => {
    const host = new URL(url).hostname;
    if (!['127.0.0.1', 'localhost', '[::1]'].includes(host)) throw new Error(`--${name} must be on this machine (loopback), not ${host}`);
    return url;
  };
  const listeners = whole('listeners', values.listeners, 1, LIMITS.listeners);
  const calls = whole('calls', values.calls, 1, LIMITS.calls);
  if (calls > listeners) throw new Error(`--calls (${calls}) cannot exceed --listeners (${listeners}): each call rings a listening callee`);
  const codec = socketCodecs.find((name) => name === values.codec);
  if (!codec) throw new Error(`--codec must be ${socketCodecs.join(' or ')} (got "${values.codec}")`);
  const metricsPorts = values['metrics-ports'] === '' ? [] : values['metrics-ports'].split(',').map((port) => whole('metrics-ports', port, 1, 65_535));
  const instancesPerMode = chosen.includes('two') ? 2 : 1;
  if (metricsPorts.length > 0 && metricsPorts.length !== instancesPerMode) {
    throw new Error(`--metrics-ports needs one port per instance, ${instancesPerMode} for --mode ${values.mode} (got "${values['metrics-ports']}")`);
  }
  return {
    listeners,
    calls,
    seconds: whole('seconds', values.seconds, 1, LIMITS.seconds),
    warmup: whole('warmup', values.warmup, 0, LIMITS.warmup),
    baselineSeconds: whole('baseline-seconds', values['baseline-seconds'], 1, LIMITS.baselineSeconds),
    modes: chosen,
    postgresUrl: loopback('postgres-url', values['postgres-url']),
    redisUrl: loopback('redis-url', values['redis-url']),
    pin: values.pin,
    profileDir: values['cpu-prof'] ? fs.mkdtempSync(path.join(os.tmpdir(), 'voxline-load-profile-')) : null,
    instanceFlags: values['instance-flags'].split(/\s+/).filter(Boolean),
    codec,
    voice: codec === 'opus' && !values['no-voice'] ? EFFECT_VOICE : null,
    metricsPorts,
    record: values.record,
  };
}

/** Memory after two full collections a moment apart, so garbage of the set-up is not counted. */
async function settledUsage(server: ServerProcess): Promise<ServerUsage> {
  await server.usage(true);
  await sleep(200);
  return server.usage(true);
}

/** An instance's usage at each step: before the tabs open, with them listening, with the calls up after the audio. */
interface Steps {
  idle: ServerUsage | null;
  listening: ServerUsage | null;
  loaded: ServerUsage | null;
}

/** One Voxline instance and its memory at each step of the set-up. */
interface Instance extends Steps {
  name: string;
  server: ServerProcess;
  baseUrl: string;
  /** Sockets it holds once everything is up: listening tabs and media sockets. */
  listeners: number;
  mediaSockets: number;
  windowStart: ServerUsage | null;
  windowEnd: ServerUsage | null;
  /** Its DATA_DIR, where its recordings are written. */
  dataDir: string;
  /** Bytes of recordings in `dataDir` at the start and end of the measured window. */
  recordedAtStart: number;
  recordedAtEnd: number;
  /** CPU time (ms) of its child processes (the recordings' encoder) at the start and end of the window, by pid. */
  childrenAtStart: Map<number, number>;
  childrenAtEnd: Map<number, number>;
}

/** What one mode measured. */
interface ModeResult {
  title: string;
  instances: Instance[];
  listenersHeld: number;
  listenersDropped: number;
  callsUp: number;
  callFailures: string[];
  baseline: OneWayResult;
  relay: Pick<Baseline, 'relayCpu' | 'relayLoopDelayP99Ms' | 'relayLoopDelayMaxMs'>;
  /** Two instances: the bare relay through Redis, the least any relay across processes does. */
  acrossRedis: Baseline | null;
  voxline: OneWayResult;
  /** % of one core over Voxline's measured window. */
  redisCpu: number | null;
  postgresCpu: number | null;
  loadCpu: number;
  others: number | null;
  /** With --pin: other processes' CPU on the core of the Voxline instances (Redis and PostgreSQL included). */
  othersOnServerCore: number | null;
  baselineOthers: number | null;
}

/** Everything a mode starts, so that a failure anywhere can still tear it all down. */
class Teardown {
  private readonly servers: ServerProcess[] = [];
  private readonly sockets: WebSocket[] = [];
  private readonly tabs: ListeningTab[] = [];
  private database: { drop: () => Promise<void> } | null = null;
  private readonly folders: string[] = [];

  server(server: ServerProcess) {
    this.servers.push(server);
    return server;
  }

  socket(socket: WebSocket) {
    this.sockets.push(socket);
    return socket;
  }

  tab(tab: ListeningTab) {
    this.tabs.push(tab);
    return tab;
  }

  databaseToDrop(database: { drop: () => Promise<void> }) {
    this.database = database;
  }

  /** A new temporary folder, removed with the rest. */
  folder(prefix: string) {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    this.folders.push(folder);
    return folder;
  }

  private removeFolders() {
    for (const folder of this.folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
  }

  /** Closes the sockets, stops the servers (killed when they take too long) and drops the database. */
  async run() {
    for (const socket of this.sockets) socket.close(1000, 'bench done');
    for (const tab of this.tabs) tab.close();
    this.sockets.length = 0;
    this.tabs.length = 0;
    await sleep(500);
    await Promise.all(this.servers.map((server) => server.stop()));
    this.servers.length = 0;
    await this.database?.drop();
    this.database = null;
    this.removeFolders();
  }

  /** After a failure: kills at once, then drops the database. */
  async abort() {
    for (const server of this.servers) server.kill();
    await sleep(500);
    await this.database?.drop().catch((error: unknown) => console.error(`could not drop the bench database: ${String(error)}`));
    this.removeFolders();
  }
}

function cpuPercentBetween(start: ServerUsage, end: ServerUsage) {
  return ((end.cpuUserUs + end.cpuSystemUs - start.cpuUserUs - start.cpuSystemUs) / 1000 / (end.atMs - start.atMs)) * 100;
}

/** A bare relay's window: its frames, its own CPU and event-loop delay, and the other processes' CPU. */
interface Baseline {
  result: OneWayResult;
  /** Summed over its processes, % of one core. */
  relayCpu: number;
  /** The worst of its processes. */
  relayLoopDelayP99Ms: number;
  relayLoopDelayMaxMs: number;
  /** Across Redis: Redis's CPU over the window, % of one core. */
  redisCpu: number | null;
  others: number | null;
}

/**
 * Frames through a bare relay, the same number of calls at the same pace, measured alone: one
 * process joining both sockets of a call, or, given `redisUrl`, two processes, the caller's socket
 * on one and the callee's on the other, passing every frame through Redis.
 */
async function runBaseline(options: Options, pinned: boolean, teardown: Teardown, run: number, redisUrl: string | null): Promise<Baseline> {
  const name = redisUrl ? 'bare relay through Redis' : 'bare ws relay';
  const args = redisUrl ? [redisUrl, `bare-relay:${process.pid}:${run}`] : [];
  const relays = await Promise.all(
    (redisUrl ? ['1', '2'] : ['']).map((suffix) => ServerProcess.start(`${name} ${suffix}`.trim(), '../load/bare-relay-server.ts', { args, nodeArgs: options.instanceFlags })),
  );
  for (const relay of relays) {
    teardown.server(relay);
    if (pinned && !pinToCpu(relay.pid, SERVER_CPU)) throw new Error(`could not pin the ${name} to CPU ${SERVER_CPU}`);
  }
  const pathOf = (index: number, side: 'a' | 'b') => (redisUrl ? `/pair/${index}/${side}` : `/pair/${index}`);
  const pairs = await inParallel(Array.from({ length: options.calls }, (_, index) => index), CALL_SETUP_CONCURRENCY, async (index) => {
    const caller = teardown.socket(await openMediaSocket({ url: `ws://127.0.0.1:${relays[0]!.port}${pathOf(index, 'a')}` }));
    const callee = teardown.socket(await openMediaSocket({ url: `ws://127.0.0.1:${relays.at(-1)!.port}${pathOf(index, 'b')}` }));
    return { caller, callee };
  });
  interface Reading {
    usages: ServerUsage[];
    cpu: CpuTimes | null;
    redis: Map<number, number>;
  }
  const read = async (): Promise<Reading> => ({ usages: await Promise.all(relays.map((relay) => relay.usage())), cpu: readCpuTimes(), redis: processCpuMs('redis-server') });
  let start: Reading | null = null;
  let end: Reading | null = null;
  const result = await runOneWay(pairs, {
    run,
    codec: options.codec,
    warmupSeconds: options.warmup,
    seconds: options.baselineSeconds,
    drainMs: DRAIN_MS,
    overlaidFrames: 0,
    onWindowStart: async () => {
      start = await read();
    },
    onWindowEnd: async () => {
      end = await read();
    },
  });
  const s = start as Reading | null;
  const e = end as Reading | null;
  if (!s || !e) throw new Error(`the ${name}'s window was not recorded`);
  const relayCpu = relays.reduce((sum, _, index) => sum + cpuPercentBetween(s.usages[index]!, e.usages[index]!), 0);
  const redisCpuMs = redisUrl ? cpuMsBetween(s.redis, e.redis) : null;
  const redisCpu = redisCpuMs === null ? null : (redisCpuMs / result.windowMs) * 100;
  let others: number | null = null;
  if (s.cpu && e.cpu) others = Math.max(0, cpuBusyPercent(s.cpu, e.cpu).all - relayCpu - (redisCpu ?? 0) - (result.loadCpuMs / result.windowMs) * 100);
  for (const { caller, callee } of pairs) {
    caller.close(1000, 'bench done');
    callee.close(1000, 'bench done');
  }
  await Promise.all(relays.map((relay) => relay.stop()));
  return {
    result,
    relayCpu,
    relayLoopDelayP99Ms: Math.max(...e.usages.map((usage) => usage.loopDelayP99Ms)),
    relayLoopDelayMaxMs: Math.max(...e.usages.map((usage) => usage.loopDelayMaxMs)),
    redisCpu,
    others,
  };
}

async function startInstance(name: string, settings: InstanceSettings, options: Options, pinned: boolean, teardown: Teardown): Promise<Instance> {
  const server = teardown.server(
    await ServerProcess.start(name, '../load/voxline-instance.ts', {
      args: [JSON.stringify(settings)],
      nodeArgs: [...(options.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`] : []), ...options.instanceFlags],
    }),
  );
  if (pinned && !pinToCpu(server.pid, SERVER_CPU)) throw new Error(`could not pin ${name} to CPU ${SERVER_CPU}`);
  return {
    name,
    server,
    baseUrl: `http://127.0.0.1:${server.port}`,
    listeners: 0,
    mediaSockets: 0,
    idle: null,
    listening: null,
    loaded: null,
    windowStart: null,
    windowEnd: null,
    dataDir: settings.dataDir!,
    recordedAtStart: 0,
    recordedAtEnd: 0,
    childrenAtStart: new Map(),
    childrenAtEnd: new Map(),
  };
}

/** The mode under way's children and database, for a failure or the time limit to tear down. */
let current: Teardown | null = null;

async function runMode(mode: ModeName, options: Options, pinned: boolean, run: number, onBroken: (error: Error) => void): Promise<ModeResult> {
  const teardown = new Teardown();
  current = teardown;
  try {
    return await measureMode(mode, options, pinned, run, teardown, onBroken);
  } catch (error) {
    await teardown.abort();
    throw error;
  } finally {
    current = null;
  }
}

async function measureMode(mode: ModeName, options: Options, pinned: boolean, run: number, teardown: Teardown, onBroken: (error: Error) => void): Promise<ModeResult> {
  const secret = randomBytes(32).toString('base64url');
  let instances: Instance[];
  let title: string;
  if (mode === 'single') {
    title = 'single instance';
    progress(`${title}: starting Voxline on the embedded database, no Redis`);
    const settings: InstanceSettings = { name: 'single', secret, dataDir: teardown.folder('voxline-load-data-'), metricsPort: options.metricsPorts[0] };
    instances = [await startInstance('Voxline', settings, options, pinned, teardown)];
  } else {
    title = 'two instances';
    const database = await createDatabase(options.postgresUrl);
    teardown.databaseToDrop(database);
    progress(`${title}: database ${database.name} created; starting two Voxline instances on it and Redis at ${options.redisUrl}`);
    const shared = { secret, databaseUrl: database.url, redisUrl: options.redisUrl };
    // A DATA_DIR each, where the local store writes recordings (the database is PostgreSQL's).
    const first = await startInstance('Voxline 1', { name: 'two', ...shared, dataDir: teardown.folder('voxline-load-data-'), metricsPort: options.metricsPorts[0] }, options, pinned, teardown);
    const second = await startInstance(
      'Voxline 2',
      { name: 'two-b', ...shared, dataDir: teardown.folder('voxline-load-data-'), metricsPort: options.metricsPorts[1] },
      options,
      pinned,
      teardown,
    );
    instances = [first, second];
  }
  for (const instance of instances) instance.server.onCrash = onBroken;
  const calleeSide = instances[0]!;
  const callerSide = instances[instances.length - 1]!;

  // The effect voice is saved for the callees too, which changes nothing: only a caller's voice is changed.
  const users = await calleeSide.server.createUsers(options.listeners + options.calls, options.voice, options.record);
  const premium = [options.voice ? 'with the effect voice' : '', options.record ? 'to record' : ''].filter(Boolean).join(' and ');
  progress(`${title}: ${users.length} users signed up and in (in ${calleeSide.name}'s process)${premium ? `, on Premium ${premium}` : ''}; renting numbers over HTTP`);
  const callees = users.slice(0, options.listeners).map((user: BenchUser) => new VoxlineUser(user));
  const callers = users.slice(options.listeners).map((user: BenchUser) => new VoxlineUser(user));
  await inParallel(callees, RENT_CONCURRENCY, (callee, index) => callee.rentNumber(calleeSide.baseUrl, numberPattern(index)));
  await inParallel(callers, RENT_CONCURRENCY, (caller, index) => caller.rentNumber(callerSide.baseUrl, numberPattern(callees.length + index)));
  if (options.record) await inParallel(callers, RENT_CONCURRENCY, (caller) => caller.recordEveryCall(callerSide.baseUrl));
  progress(`${title}: ${callees.length + callers.length} numbers rented; opening the listening tabs on ${calleeSide.name}`);
  for (const instance of instances) instance.idle = await settledUsage(instance.server);

  const tabs = await inParallel(callees, TAB_CONCURRENCY, async (callee) => teardown.tab(await ListeningTab.open(calleeSide.baseUrl, callee)));
  calleeSide.listeners = tabs.length;
  for (const instance of instances) instance.listening = await settledUsage(instance.server);
  progress(`${title}: ${tabs.length} tabs listening; placing ${options.calls} calls on ${callerSide.name}`);

  const callFailures: string[] = [];
  const calls = (
    await inParallel(callers, CALL_SETUP_CONCURRENCY, async (caller, index): Promise<CallMedia | null> => {
      const tab = tabs[index]!;
      const answered = tab.answerNextCall();
      // A failed placement leaves the tab waiting: its rejection is handled here, not left unhandled.
      answered.catch(() => {});
      try {
        const placed = await caller.placeCall(callerSide.baseUrl, tab.owner.phoneNumber!, options.codec);
        const callerSocket = teardown.socket(await openMediaSocket(placed.media));
        const calleeCallId = await answered;
        const calleeSocket = teardown.socket(await openMediaSocket(tab.owner.mediaTarget(calleeSide.baseUrl, `/api/v1/calls/${calleeCallId}/media`, options.codec)));
        return { caller: callerSocket, callee: calleeSocket };
      } catch (error) {
        callFailures.push(error instanceof Error ? error.message : String(error));
        return null;
      }
    })
  ).filter((call): call is CallMedia => call !== null);
  // Media sockets that the server closes just after opening (a refused call) show up a moment later.
  await sleep(500);
  const upCalls = calls.filter(({ caller, callee }) => caller.readyState === caller.OPEN && callee.readyState === callee.OPEN);
  if (upCalls.length < calls.length) callFailures.push(`${calls.length - upCalls.length} calls had a media socket closed by the server right after opening`);
  callerSide.mediaSockets += upCalls.length;
  calleeSide.mediaSockets += upCalls.length;
  progress(`${title}: ${upCalls.length} calls answered with both media sockets open${callFailures.length ? `; ${callFailures.length} failed, the first: ${callFailures[0]}` : ''}`);
  if (upCalls.length === 0) throw new Error(`${title}: no call could be set up; the first failure: ${callFailures[0]}`);

  progress(`${title}: bare relay baseline, ${upCalls.length} pairs for ${options.baselineSeconds} s`);
  const baseline = await runBaseline({ ...options, calls: upCalls.length }, pinned, teardown, run, null);
  let acrossRedis: Baseline | null = null;
  if (mode === 'two') {
    progress(`${title}: bare relay through Redis, across two processes, ${upCalls.length} pairs for ${options.baselineSeconds} s`);
    acrossRedis = await runBaseline({ ...options, calls: upCalls.length }, pinned, teardown, run, options.redisUrl);
  }

  progress(`${title}: audio both ways on ${upCalls.length} calls for ${options.seconds} s (after ${options.warmup} s of warm-up)`);
  let machineStart: CpuTimes | null = null;
  let machineEnd: CpuTimes | null = null;
  const named = { redis: [new Map(), new Map()] as Map<number, number>[], postgres: [new Map(), new Map()] as Map<number, number>[] };
  const voxline = await runOneWay(upCalls, {
    run: run + 1,
    codec: options.codec,
    warmupSeconds: options.warmup,
    seconds: options.seconds,
    drainMs: DRAIN_MS,
    overlaidFrames: options.record ? ANNOUNCEMENT_FRAMES : 0,
    onWindowStart: async () => {
      machineStart = readCpuTimes();
      named.redis[0] = processCpuMs('redis-server');
      named.postgres[0] = processCpuMs('postgres');
      for (const instance of instances) instance.windowStart = await instance.server.usage();
      for (const instance of instances) instance.recordedAtStart = recordedBytes(instance.dataDir);
      for (const instance of instances) instance.childrenAtStart = childProcessesCpuMs(instance.server.pid);
    },
    onWindowEnd: async () => {
      for (const instance of instances) instance.windowEnd = await instance.server.usage();
      for (const instance of instances) instance.recordedAtEnd = recordedBytes(instance.dataDir);
      for (const instance of instances) instance.childrenAtEnd = childProcessesCpuMs(instance.server.pid);
      named.redis[1] = processCpuMs('redis-server');
      named.postgres[1] = processCpuMs('postgres');
      machineEnd = readCpuTimes();
    },
  });
  const windowMs = voxline.windowMs;
  const namedPercent = ([before, after]: Map<number, number>[]) => {
    const cpuMs = cpuMsBetween(before!, after!);
    return cpuMs === null ? null : (cpuMs / windowMs) * 100;
  };
  const redisCpu = mode === 'two' ? namedPercent(named.redis) : null;
  const postgresCpu = mode === 'two' ? namedPercent(named.postgres) : null;
  const loadCpu = (voxline.loadCpuMs / windowMs) * 100;
  let others: number | null = null;
  let othersOnServerCore: number | null = null;
  const machineBefore = machineStart as CpuTimes | null;
  const machineAfter = machineEnd as CpuTimes | null;
  if (machineBefore && machineAfter) {
    const serversCpu = instances.reduce((n, instance) => n + cpuPercentBetween(instance.windowStart!, instance.windowEnd!), 0);
    const busy = cpuBusyPercent(machineBefore, machineAfter);
    const childrenCpu = instances.reduce((n, instance) => n + ((cpuMsBetween(instance.childrenAtStart, instance.childrenAtEnd) ?? 0) / windowMs) * 100, 0);
    others = Math.max(0, busy.all - serversCpu - childrenCpu - loadCpu - (redisCpu ?? 0) - (postgresCpu ?? 0));
    if (pinned) othersOnServerCore = Math.max(0, (busy.cores[SERVER_CPU] ?? 0) - serversCpu);
  }
  // With every tab listening and every call still up, after a full collection.
  for (const instance of instances) instance.loaded = await settledUsage(instance.server);
  const listenersDropped = tabs.filter((tab) => tab.dropped).length;
  progress(
    `${title}: p50 ${percentile(voxline.bothMs, 0.5).toFixed(2)} ms, p99 ${percentile(voxline.bothMs, 0.99).toFixed(2)} ms one way ` +
      `(bare relay ${percentile(baseline.result.bothMs, 0.5).toFixed(2)} / ${percentile(baseline.result.bothMs, 0.99).toFixed(2)} ms), ` +
      `${voxline.dropped} frames dropped, ${listenersDropped} tabs dropped; tearing down`,
  );
  for (const instance of instances) instance.server.onCrash = null;
  await teardown.run();
  return {
    title,
    instances,
    listenersHeld: tabs.length - listenersDropped,
    listenersDropped,
    callsUp: upCalls.length,
    callFailures,
    baseline: baseline.result,
    relay: { relayCpu: baseline.relayCpu, relayLoopDelayP99Ms: baseline.relayLoopDelayP99Ms, relayLoopDelayMaxMs: baseline.relayLoopDelayMaxMs },
    acrossRedis,
    voxline,
    redisCpu,
    postgresCpu,
    loadCpu,
    others,
    othersOnServerCore,
    baselineOthers: baseline.others,
  };
}

const fixed = (value: number, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const heapOf = (usage: ServerUsage | null) => (usage ? usage.heapUsedBytes + usage.arrayBuffersBytes : Number.NaN);

function column(result: ModeResult, options: Options): Map<string, string> {
  const cells = new Map<string, string>();
  const { voxline, baseline, instances } = result;
  const calls = result.callsUp;
  cells.set('listening tabs held (signalling sockets)', `${result.listenersHeld} of ${options.listeners}${result.listenersDropped ? ` (${result.listenersDropped} dropped)` : ''}`);
  cells.set('calls up, audio both ways', `${calls} of ${options.calls}${result.callFailures.length ? ` (${result.callFailures.length} failed)` : ''}`);
  cells.set('frames sent / received in order', `${voxline.sent} / ${voxline.received}`);
  if (options.record) cells.set('frames under the recording announcement (altered by design)', String(voxline.overlaid));
  cells.set('frames dropped (of which out of order)', `${voxline.dropped} (${voxline.outOfOrder}), ${fixed((voxline.dropped / Math.max(1, voxline.sent)) * 100)} %`);
  // Every call has two browsers, each sending one stream and receiving the other.
  const kbits = (bytes: number) => fixed((bytes * 8) / 1000 / (2 * Math.max(1, calls) * voxline.measuredSeconds), 1);
  cells.set('kbit/s per browser on the socket, to / from the server (payload and WebSocket header)', `${kbits(voxline.bytesToServer)} / ${kbits(voxline.bytesFromServer)}`);
  if (options.codec === 'opus') cells.set('Opus streams decoded / heard silent', `${voxline.decodedStreams} / ${voxline.silentStreams}`);
  for (const [label, fraction] of [['p50', 0.5], ['p99', 0.99], ['max', 1]] as const) {
    const bare = percentile(baseline.bothMs, fraction);
    const ours = percentile(voxline.bothMs, fraction);
    cells.set(`one way ${label}, Voxline / bare relay (ms)`, `${fixed(ours)} / ${fixed(bare)}`);
    cells.set(`added latency ${label} (ms)`, fixed(ours - bare));
  }
  const added99 = (sorted: Float64Array) => percentile(sorted, 0.99) - percentile(baseline.bothMs, 0.99);
  cells.set('added p99, caller→callee / callee→caller (ms)', `${fixed(added99(voxline.callerToCalleeMs))} / ${fixed(added99(voxline.calleeToCallerMs))}`);
  const perInstance = (value: (instance: Instance) => string) => instances.map(value).join(' + ');
  const serverCpu = instances.map((instance) => cpuPercentBetween(instance.windowStart!, instance.windowEnd!));
  cells.set(
    'Voxline CPU (% of one core)',
    instances.length > 1 ? `${serverCpu.map((cpu) => fixed(cpu, 1)).join(' + ')} = ${fixed(serverCpu.reduce((a, b) => a + b, 0), 1)}` : fixed(serverCpu[0]!, 1),
  );
  cells.set('Voxline CPU per call (% of one core)', fixed(serverCpu.reduce((a, b) => a + b, 0) / Math.max(1, calls), 3));
  const shared = `${fixed(result.redisCpu ?? Number.NaN, 1)} / ${fixed(result.postgresCpu ?? Number.NaN, 1)}`;
  cells.set('Redis / PostgreSQL CPU (% of one core)', result.redisCpu === null && result.postgresCpu === null ? 'none (embedded database)' : shared);
  cells.set('load generator CPU (% of one core)', fixed(result.loadCpu, 1));
  cells.set(
    'load generator event-loop delay p99 / max, Voxline / baseline window (ms)',
    `${fixed(voxline.loadLoopDelayP99Ms, 1)} / ${fixed(voxline.loadLoopDelayMaxMs, 1)}; ${fixed(baseline.loadLoopDelayP99Ms, 1)} / ${fixed(baseline.loadLoopDelayMaxMs, 1)}`,
  );
  cells.set(
    'load generator full GCs / longest GC pause, Voxline / baseline window (ms)',
    `${voxline.loadGcMajorCount} / ${fixed(voxline.loadGcLongestMs, 1)}; ${baseline.loadGcMajorCount} / ${fixed(baseline.loadGcLongestMs, 1)}`,
  );
  cells.set(
    'bare relay CPU (% of one core) / event-loop delay p99 / max (ms)',
    `${fixed(result.relay.relayCpu, 1)} / ${fixed(result.relay.relayLoopDelayP99Ms, 1)} / ${fixed(result.relay.relayLoopDelayMaxMs, 1)}`,
  );
  const across = result.acrossRedis;
  const notRun = 'not run (one process)';
  cells.set(
    'bare relay through Redis, across two processes: one way p50 / p99 (ms)',
    across ? `${fixed(percentile(across.result.bothMs, 0.5))} / ${fixed(percentile(across.result.bothMs, 0.99))}` : notRun,
  );
  cells.set('Voxline p99 over the bare relay through Redis (ms)', across ? fixed(percentile(voxline.bothMs, 0.99) - percentile(across.result.bothMs, 0.99)) : notRun);
  cells.set(
    'bare relay through Redis: dropped / its CPU / Redis CPU (% of one core)',
    across ? `${across.result.dropped} / ${fixed(across.relayCpu, 1)} / ${fixed(across.redisCpu ?? Number.NaN, 1)}` : notRun,
  );
  cells.set("other processes' CPU, Voxline / baseline window (% of one core)", `${fixed(result.others ?? Number.NaN, 1)} / ${fixed(result.baselineOthers ?? Number.NaN, 1)}`);
  if (result.othersOnServerCore !== null) cells.set("other processes' CPU on the instances' core (% of it)", fixed(result.othersOnServerCore, 1));
  cells.set('JS heap idle → listening → with calls (MB)', perInstance((i) => `${mb(i.idle!.heapUsedBytes)} → ${mb(i.listening!.heapUsedBytes)} → ${mb(i.loaded!.heapUsedBytes)}`));
  cells.set('RSS idle → listening → with calls (MB)', perInstance((i) => `${mb(i.idle!.rssBytes)} → ${mb(i.listening!.rssBytes)} → ${mb(i.loaded!.rssBytes)}`));
  const sum = (pick: (instance: Instance) => number) => instances.reduce((n, instance) => n + pick(instance), 0);
  /** The growth of one measure between two steps, summed over the instances, in KB per item. */
  const perItem = (measure: (usage: ServerUsage | null) => number, from: keyof Steps, to: keyof Steps, items: number) =>
    fixed(sum((i) => measure(i[to]) - measure(i[from])) / 1024 / Math.max(1, items), 1);
  const rss = (usage: ServerUsage | null) => usage?.rssBytes ?? Number.NaN;
  const listeners = result.listenersHeld;
  const connections = sum((i) => i.listeners + i.mediaSockets);
  cells.set('RSS per listening tab / per call (KB)', `${perItem(rss, 'idle', 'listening', listeners)} / ${perItem(rss, 'listening', 'loaded', calls)}`);
  cells.set('heap + buffers per listening tab / per call (KB)', `${perItem(heapOf, 'idle', 'listening', listeners)} / ${perItem(heapOf, 'listening', 'loaded', calls)}`);
  cells.set('RSS / heap + buffers per connection (KB)', `${perItem(rss, 'idle', 'loaded', connections)} / ${perItem(heapOf, 'idle', 'loaded', connections)} (${connections} sockets)`);
  cells.set('event-loop delay p99 / max in the window (ms)', perInstance((i) => `${fixed(i.windowEnd!.loopDelayP99Ms, 1)} / ${fixed(i.windowEnd!.loopDelayMaxMs, 1)}`));
  const gc = (i: Instance) => {
    const end = i.windowEnd!;
    return `${fixed((end.gcTotalMs / (end.atMs - i.windowStart!.atMs)) * 100, 1)} % / ${end.gcMajorCount} / ${fixed(end.gcLongestMs, 1)}`;
  };
  cells.set('GC: share of the window / full GCs / longest pause (ms)', perInstance(gc));
  if (options.record) {
    const written = sum((i) => i.recordedAtEnd - i.recordedAtStart);
    const perSecond = written / voxline.measuredSeconds;
    cells.set('recordings written in the window, total / per call (kB/s, file sizes at both ends)', `${fixed(perSecond / 1000, 1)} / ${fixed(perSecond / 1000 / Math.max(1, calls), 2)}`);
    cells.set('recording size per call (kB per minute; at most 250)', fixed((perSecond * 60) / 1000 / Math.max(1, calls), 1));
    const encoderCpu = (i: Instance) => ((cpuMsBetween(i.childrenAtStart, i.childrenAtEnd) ?? 0) / (i.windowEnd!.atMs - i.windowStart!.atMs)) * 100;
    cells.set("recordings' encoder process CPU, beside Voxline's (% of one core)", perInstance((i) => fixed(encoderCpu(i), 1)));
  }
  return cells;
}

function report(options: Options, pinned: boolean, results: ModeResult[]) {
  const columns = results.map((result) => column(result, options));
  const labels = [...columns[0]!.keys()];
  const header = ['', ...results.map((result) => result.title)];
  const rows = labels.map((label) => [label, ...columns.map((cells) => cells.get(label) ?? '')]);
  const widths = header.map((title, index) => Math.max(title.length, ...rows.map((cells) => cells[index]!.length)));
  const line = (cells: string[]) => `| ${cells.map((cell, index) => cell.padEnd(widths[index]!)).join(' | ')} |`;
  console.log('');
  console.log(
    `${options.listeners} listening tabs and ${options.calls} calls between Voxline users, ` +
      (options.codec === 'opus'
        ? `one Opus packet per 20 ms both ways (?codec=opus), ${options.voice ? `the callers' voice changer at pitch ${options.voice.pitch}` : 'the normal voice'}, `
        : '640-byte 20 ms PCM frames both ways, ') +
      'at real-time pace, ' +
      `${options.seconds} s measured after ${options.warmup} s of warm-up; bare relay baseline ${options.baselineSeconds} s per mode`,
  );
  console.log(
    `${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, Node ${process.versions.node}; ` +
      `${pinned ? `Voxline instances and the relay pinned to CPU ${SERVER_CPU}, load generator to CPU ${LOAD_CPU}, Redis and PostgreSQL not pinned` : 'not pinned'}` +
      (options.instanceFlags.length > 0 ? `; instances started with ${options.instanceFlags.join(' ')}` : ''),
  );
  console.log('');
  console.log(line(header));
  console.log(line(widths.map((width) => '-'.repeat(width))));
  for (const cells of rows) console.log(line(cells));
  console.log('');
  for (const result of results) {
    const added = percentile(result.voxline.bothMs, 0.99) - percentile(result.baseline.bothMs, 0.99);
    const full = result.listenersHeld >= TARGET.listeners && result.callsUp >= TARGET.calls;
    const met = full && result.voxline.dropped === 0 && added < TARGET.p99AddedMs;
    console.log(
      `Target, ${result.title} (${TARGET.listeners} tabs, ${TARGET.calls} calls, no dropped frame, p99 added < ${TARGET.p99AddedMs} ms): ${met ? 'met' : 'NOT met'} ` +
        `(${result.listenersHeld} tabs, ${result.callsUp} calls, ${result.voxline.dropped} frames dropped, p99 added ${fixed(added)} ms).`,
    );
    for (const failure of result.callFailures.slice(0, 3)) console.log(`  ${result.title}: a call failed: ${failure}`);
  }
}

async function main() {
  const options = readOptions();
  const fail = (error: unknown) => {
    console.error(`bench/load failed: ${error instanceof Error ? error.message : String(error)}`);
    void (current?.abort() ?? Promise.resolve()).finally(() => process.exit(1));
  };
  // Bounded in time whatever happens: set-up, the baseline and the load of every mode, the shutdowns.
  const perModeMs = 180_000 + (options.listeners + options.calls) * 100 + (2 * options.baselineSeconds + options.seconds + 3 * options.warmup) * 1000 + 6 * DRAIN_MS;
  const budgetMs = perModeMs * options.modes.length;
  setTimeout(() => fail(new Error(`took longer than ${Math.round(budgetMs / 1000)} s`)), budgetMs).unref();

  const pinned = options.pin && os.availableParallelism() >= 2 && pinToCpu(process.pid, LOAD_CPU);
  if (options.pin && !pinned) progress('not pinning to CPUs (needs 2 cores and taskset)');

  const results: ModeResult[] = [];
  const failedModes: string[] = [];
  let broken: Error | null = null;
  for (const [index, mode] of options.modes.entries()) {
    try {
      results.push(
        await runMode(mode, options, pinned, index * 2, (error) => {
          broken ??= error;
          progress(`broken: ${error.message}`);
        }),
      );
    } catch (error) {
      // The other mode still runs and is reported; the exit code says this one broke.
      failedModes.push(error instanceof Error ? error.message : String(error));
      progress(`failed: ${failedModes.at(-1)}`);
    }
  }
  if (results.length > 0) report(options, pinned, results);
  if (options.profileDir) console.log(`\nCPU profiles of the Voxline instances (whole runs, set-up included): ${options.profileDir}`);
  const problems = results.flatMap((result) => [
    ...(result.listenersDropped > 0 ? [`${result.title}: ${result.listenersDropped} listening tabs dropped`] : []),
    ...(result.voxline.droppedCalls > 0 ? [`${result.title}: ${result.voxline.droppedCalls} calls lost a media socket`] : []),
    ...(result.voxline.foreign > 0 ? [`${result.title}: ${result.voxline.foreign} frames altered or on the wrong call`] : []),
    ...(result.voxline.silentStreams > 0 ? [`${result.title}: ${result.voxline.silentStreams} Opus streams heard silence`] : []),
    ...(result.callFailures.length > 0 ? [`${result.title}: ${result.callFailures.length} calls could not be set up`] : []),
  ]);
  problems.unshift(...failedModes);
  if (broken) problems.unshift((broken as Error).message);
  if (problems.length > 0) fail(new Error(problems.join('; ')));
}

void main().catch((error: unknown) => {
  console.error(`bench/load: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
