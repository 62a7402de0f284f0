import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type WebSocket from 'ws';
import { SERVER_NODE_FLAGS } from '../../scripts/server-node-flags.mjs';
import { socketCodecs, type SocketCodec } from '../../src/common/media';
import type { VoiceSettings } from '../../src/common/voice';
import { openMediaSocket, percentile, runLoad, sleep, type LoadResult } from './load';
import { cpuBusyPercent, readCpuTimes, type CpuTimes } from './machine-load';
import type { MediaWire } from './media-wire';
import { OpusWire } from './opus-wire';
import { EFFECT_VOICE, type ServerUsage } from './protocol';
import { pinToCpu, ServerProcess } from './server-process';
import { StampedPcmWire } from './stamped-pcm-wire';
import { VoxlineCaller } from './voxline-client';

/**
 * bench/media: N concurrent calls to the sound-test line over loopback websockets, against the real
 * server and, in the same run, a bare `ws` echo server, each in a child process of its own (issue 5,
 * "Tests and measures"; docs/benchmarks.md). The two take turns in rounds, so a neighbour's burst of
 * CPU on a shared machine falls on both rather than on one.
 */

const TARGET = { calls: 200, p99AddedMs: 10 };
const LIMITS = { calls: 1000, seconds: 120, warmup: 30, rounds: 20, echoDelayMs: 1000 };
const DRAIN_MS = 2_000;
// Calls are placed a few at a time: each must connect its audio within the server's media timeout.
const SETUP_CONCURRENCY = 10;
const LOAD_CPU = 0;
const SERVER_CPU = 1;

const began = Date.now();
function progress(message: string) {
  console.log(`[${((Date.now() - began) / 1000).toFixed(1).padStart(5)} s] ${message}`);
}

interface Options {
  calls: number;
  /** Measured seconds per server, split over the rounds. */
  seconds: number;
  /** Seconds of load before each measured segment, not counted. */
  warmup: number;
  rounds: number;
  /** The sound-test echo's delay; its round trips are reported without it. */
  echoDelayMs: number;
  cpuProf: boolean;
  pin: boolean;
  /** The Node flags both servers start with: by default those of `npm start`. */
  serverFlags: string[];
  /** What the media sockets carry. */
  codec: SocketCodec;
  /** The callers' voice: an effect with Opus (unless --no-voice), the normal voice with PCM, whose stamps an effect would erase. */
  voice: VoiceSettings | null;
}

/** One server under test and what its segments measured. */
interface Subject {
  name: string;
  server: ServerProcess;
  sockets: WebSocket[];
  /** With Opus, each socket's wire, kept from segment to segment for its decoder's state. */
  opusWires: OpusWire[] | null;
  idle: ServerUsage;
  loaded: ServerUsage | null;
  loads: LoadResult[];
  serverCpuMs: number;
  serverWindowMs: number;
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
  gcTotalMs: number;
  gcLongestMs: number;
  gcMajorCount: number;
  /** Other processes' CPU time over the windows, weighted by window length (% of one core × ms). */
  othersOnServerCore: number;
  othersOnMachine: number;
}

function readOptions(): Options {
  const { values } = parseArgs({
    options: {
      calls: { type: 'string', default: String(TARGET.calls) },
      seconds: { type: 'string', default: '20' },
      warmup: { type: 'string', default: '1' },
      rounds: { type: 'string', default: '10' },
      'echo-delay': { type: 'string', default: '0' },
      'cpu-prof': { type: 'boolean', default: false },
      'no-pin': { type: 'boolean', default: false },
      'server-flags': { type: 'string', default: SERVER_NODE_FLAGS.join(' ') },
      codec: { type: 'string', default: 'pcm' },
      'no-voice': { type: 'boolean', default: false },
    },
    strict: true,
  });
  const whole = (name: string, text: string, min: number, max: number) => {
    const value = Number(text);
    if (!Number.isInteger(value) || value < min || value > max) throw new Error(`--${name} must be a whole number from ${min} to ${max} (got "${text}")`);
    return value;
  };
  const codec = socketCodecs.find((name) => name === values.codec);
  if (!codec) throw new Error(`--codec must be ${socketCodecs.join(' or ')} (got "${values.codec}")`);
  return {
    calls: whole('calls', values.calls, 1, LIMITS.calls),
    seconds: whole('seconds', values.seconds, 1, LIMITS.seconds),
    warmup: whole('warmup', values.warmup, 0, LIMITS.warmup),
    rounds: whole('rounds', values.rounds, 1, LIMITS.rounds),
    echoDelayMs: whole('echo-delay', values['echo-delay'], 0, LIMITS.echoDelayMs),
    cpuProf: values['cpu-prof'],
    pin: !values['no-pin'],
    serverFlags: values['server-flags'].split(/\s+/).filter(Boolean),
    codec,
    voice: codec === 'opus' && !values['no-voice'] ? EFFECT_VOICE : null,
  };
}

/** Runs `task` over `items`, `concurrency` at a time, keeping the order of the results. */
async function inBatches<T, R>(items: T[], concurrency: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += concurrency) {
    results.push(...(await Promise.all(items.slice(start, start + concurrency).map(task))));
  }
  return results;
}

/** Memory after two full collections a moment apart, so garbage of the set-up is not counted. */
async function settledUsage(server: ServerProcess): Promise<ServerUsage> {
  await server.usage(true);
  await sleep(200);
  return server.usage(true);
}

function subject(name: string, server: ServerProcess, idle: ServerUsage, sockets: WebSocket[], codec: SocketCodec): Subject {
  return {
    name,
    server,
    sockets,
    opusWires: codec === 'opus' ? sockets.map((_, index) => new OpusWire(index)) : null,
    idle,
    loaded: null,
    loads: [],
    serverCpuMs: 0,
    serverWindowMs: 0,
    loopDelayP99Ms: 0,
    loopDelayMaxMs: 0,
    gcTotalMs: 0,
    gcLongestMs: 0,
    gcMajorCount: 0,
    othersOnServerCore: 0,
    othersOnMachine: 0,
  };
}

async function startBareWs(options: Options): Promise<Subject> {
  const server = await ServerProcess.start('bare ws server', './bare-ws-server.ts', { nodeArgs: options.serverFlags });
  const idle = await settledUsage(server);
  const url = `ws://127.0.0.1:${server.port}/`;
  const sockets = await inBatches(Array.from({ length: options.calls }, () => ({ url })), SETUP_CONCURRENCY, openMediaSocket);
  progress(`bare ws: ${sockets.length} sockets open`);
  return subject('bare ws', server, idle, sockets, options.codec);
}

async function startVoxline(options: Options, profileDir: string | null, started: ServerProcess[]): Promise<Subject> {
  const server = await ServerProcess.start('Voxline server', './voxline-server.ts', {
    args: [String(options.echoDelayMs)],
    nodeArgs: [...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), ...options.serverFlags],
  });
  started.push(server);
  const baseUrl = `http://127.0.0.1:${server.port}`;
  progress('Voxline: server up on its embedded database; creating users');
  const users = await server.createUsers(options.calls, options.voice);
  progress(`Voxline: ${users.length} users signed up and in (in the server process)${options.voice ? ', on Premium with the effect voice' : ''}; renting numbers over HTTP`);
  const callers = users.map((user) => new VoxlineCaller(baseUrl, user));
  // One at a time: each rents the first number still on offer.
  for (const caller of callers) await caller.rentNumber();
  const idle = await settledUsage(server);
  const sockets = await inBatches(callers, SETUP_CONCURRENCY, async (caller) => openMediaSocket(await caller.callSoundTestLine(options.codec)));
  progress(`Voxline: ${sockets.length} calls to the sound-test line answered, media sockets open`);
  return subject('Voxline', server, idle, sockets, options.codec);
}

async function runSegment(target: Subject, segment: number, options: Options, pinned: boolean) {
  let startUsage: ServerUsage | null = null;
  let endUsage: ServerUsage | null = null;
  let startCpu: CpuTimes | null = null;
  let endCpu: CpuTimes | null = null;
  const wires: MediaWire[] = target.opusWires ?? target.sockets.map((_, index) => new StampedPcmWire(index, segment));
  const load = await runLoad(target.sockets, {
    wires,
    warmupSeconds: options.warmup,
    seconds: options.seconds / options.rounds,
    echoDelayMs: target.name === 'Voxline' ? options.echoDelayMs : 0,
    drainMs: DRAIN_MS,
    onWindowStart: async () => {
      startUsage = await target.server.usage();
      startCpu = readCpuTimes();
    },
    onWindowEnd: async () => {
      endUsage = await target.server.usage();
      endCpu = readCpuTimes();
    },
  });
  if (!startUsage || !endUsage) throw new Error('the measured window was not recorded');
  const start: ServerUsage = startUsage;
  const end: ServerUsage = endUsage;
  const serverCpuMs = (end.cpuUserUs + end.cpuSystemUs - start.cpuUserUs - start.cpuSystemUs) / 1000;
  const windowMs = end.atMs - start.atMs;
  target.loads.push(load);
  target.serverCpuMs += serverCpuMs;
  target.serverWindowMs += windowMs;
  target.loopDelayP99Ms = Math.max(target.loopDelayP99Ms, end.loopDelayP99Ms);
  target.loopDelayMaxMs = Math.max(target.loopDelayMaxMs, end.loopDelayMaxMs);
  target.gcTotalMs += end.gcTotalMs;
  target.gcLongestMs = Math.max(target.gcLongestMs, end.gcLongestMs);
  target.gcMajorCount += end.gcMajorCount;
  const serverPercent = (serverCpuMs / windowMs) * 100;
  let others = '';
  if (startCpu && endCpu) {
    const busy = cpuBusyPercent(startCpu, endCpu);
    const loadPercent = (load.loadCpuMs / load.windowMs) * 100;
    const onServerCore = Math.max(0, (busy.cores[SERVER_CPU] ?? 0) - serverPercent);
    const onMachine = Math.max(0, busy.all - serverPercent - loadPercent);
    if (pinned) target.othersOnServerCore += onServerCore * windowMs;
    target.othersOnMachine += onMachine * windowMs;
    others = `, other processes ${pinned ? `${onServerCore.toFixed(0)} % of the server's core, ` : ''}${onMachine.toFixed(0)} % of a core in all`;
  }
  const sorted = load.roundTripsMs;
  progress(
    `${target.name.padEnd(7)} segment ${String(segment + 1).padStart(2)}: p50 ${percentile(sorted, 0.5).toFixed(2)} ms, p99 ${percentile(sorted, 0.99).toFixed(2)} ms, ` +
      `${load.lost} lost, server ${serverPercent.toFixed(0)} % of a core (loop delay max ${end.loopDelayMaxMs.toFixed(0)} ms, ` +
      `${end.gcMajorCount} full GCs, GC pause max ${end.gcLongestMs.toFixed(0)} ms, heap ${mb(end.heapUsedBytes)} MB)${others}`,
  );
}

function totals(target: Subject) {
  const loads = target.loads;
  const count = loads.reduce((n, load) => n + load.roundTripsMs.length, 0);
  const roundTripsMs = new Float64Array(count);
  let offset = 0;
  for (const load of loads) {
    roundTripsMs.set(load.roundTripsMs, offset);
    offset += load.roundTripsMs.length;
  }
  roundTripsMs.sort();
  const sum = (pick: (load: LoadResult) => number) => loads.reduce((n, load) => n + pick(load), 0);
  const windowMs = target.serverWindowMs;
  return {
    roundTripsMs,
    sent: sum((load) => load.sent),
    echoed: sum((load) => load.echoed),
    lost: sum((load) => load.lost),
    malformed: sum((load) => load.malformed),
    droppedSockets: sum((load) => load.droppedSockets),
    bytesToServer: sum((load) => load.bytesToServer),
    bytesFromServer: sum((load) => load.bytesFromServer),
    measuredSeconds: sum((load) => load.measuredSeconds),
    decodedStreams: target.opusWires?.filter((wire) => wire.decodes).length ?? 0,
    silentStreams: target.opusWires?.filter((wire) => wire.silent).length ?? 0,
    serverCpuPercent: (target.serverCpuMs / windowMs) * 100,
    loadCpuPercent: (sum((load) => load.loadCpuMs) / sum((load) => load.windowMs)) * 100,
    othersOnServerCore: target.othersOnServerCore / windowMs,
    othersOnMachine: target.othersOnMachine / windowMs,
  };
}

const ms = (value: number) => value.toFixed(2);
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

function report(options: Options, pinned: boolean, base: Subject, voxline: Subject) {
  const n = options.calls;
  const b = totals(base);
  const v = totals(voxline);
  const rows: [string, string, string, string][] = [];
  for (const [label, fraction] of [['p50', 0.5], ['p90', 0.9], ['p99', 0.99], ['p99.9', 0.999], ['max', 1]] as const) {
    const baseMs = percentile(b.roundTripsMs, fraction);
    const voxlineMs = percentile(v.roundTripsMs, fraction);
    const less = options.echoDelayMs > 0 ? `, less the ${options.echoDelayMs} ms echo delay` : '';
    rows.push([`round trip ${label} (ms${less})`, ms(baseMs), ms(voxlineMs), ms(voxlineMs - baseMs)]);
  }
  const row = (label: string, baseCell: string, voxlineCell: string, added = '') => rows.push([label, baseCell, voxlineCell, added]);
  row('frames sent / echoed', `${b.sent} / ${b.echoed}`, `${v.sent} / ${v.echoed}`);
  const lost = (t: typeof b) => `${t.lost} (${((t.lost / Math.max(1, t.sent)) * 100).toFixed(2)} %)`;
  row('frames lost', lost(b), lost(v));
  const kbits = (t: typeof b) => {
    const rate = (bytes: number) => ((bytes * 8) / 1000 / (n * t.measuredSeconds)).toFixed(1);
    return `${rate(t.bytesToServer)} / ${rate(t.bytesFromServer)}`;
  };
  row('kbit/s per call on the socket, to / from the server (payload and WebSocket header)', kbits(b), kbits(v));
  if (options.codec === 'opus') row('Opus streams decoded / heard silent', `${b.decodedStreams} / ${b.silentStreams}`, `${v.decodedStreams} / ${v.silentStreams}`);
  row('server CPU (% of one core)', b.serverCpuPercent.toFixed(1), v.serverCpuPercent.toFixed(1), (v.serverCpuPercent - b.serverCpuPercent).toFixed(1));
  row('CPU per call (% of one core)', (b.serverCpuPercent / n).toFixed(3), (v.serverCpuPercent / n).toFixed(3), ((v.serverCpuPercent - b.serverCpuPercent) / n).toFixed(3));
  const loaded = (t: Subject) => t.loaded?.rssBytes ?? Number.NaN;
  row('server RSS before → with the calls (MB)', `${mb(base.idle.rssBytes)} → ${mb(loaded(base))}`, `${mb(voxline.idle.rssBytes)} → ${mb(loaded(voxline))}`);
  const perCall = (t: Subject) => ((loaded(t) - t.idle.rssBytes) / 1024 / n).toFixed(0);
  row('RSS per call (KB)', perCall(base), perCall(voxline));
  const heap = (usage: ServerUsage | null) => (usage ? usage.heapUsedBytes + usage.arrayBuffersBytes : Number.NaN);
  const heapPerCall = (t: Subject) => ((heap(t.loaded) - heap(t.idle)) / 1024 / n).toFixed(1);
  row('JS heap + buffers per call (KB)', heapPerCall(base), heapPerCall(voxline));
  row('server event-loop delay, worst segment p99 / max (ms)', `${ms(base.loopDelayP99Ms)} / ${ms(base.loopDelayMaxMs)}`, `${ms(voxline.loopDelayP99Ms)} / ${ms(voxline.loopDelayMaxMs)}`);
  const gc = (t: Subject) => `${((t.gcTotalMs / t.serverWindowMs) * 100).toFixed(1)} % / ${t.gcMajorCount} / ${ms(t.gcLongestMs)}`;
  row('server GC: share of the time / full GCs / longest pause (ms)', gc(base), gc(voxline));
  row('load generator CPU (% of one core)', b.loadCpuPercent.toFixed(1), v.loadCpuPercent.toFixed(1));
  if (pinned) row("other processes' CPU on the server's core (%)", b.othersOnServerCore.toFixed(1), v.othersOnServerCore.toFixed(1));
  row("other processes' CPU on the machine (% of one core)", b.othersOnMachine.toFixed(1), v.othersOnMachine.toFixed(1));

  const header: [string, string, string, string] = ['', 'bare ws', 'Voxline', 'added by Voxline'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((cells) => cells[column]!.length)));
  const line = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  console.log('');
  const media =
    options.codec === 'opus'
      ? `one Opus packet per 20 ms each way (?codec=opus), ${options.voice ? `the voice changer at pitch ${options.voice.pitch}` : 'the normal voice'}`
      : '20 ms 640-byte PCM frames each way';
  console.log(
    `${n} concurrent calls to the sound-test line (echo delay ${options.echoDelayMs} ms), ${media}; ` +
      `per server ${options.seconds} s measured in ${options.rounds} segments taking turns, each after ${options.warmup} s of unmeasured load`,
  );
  console.log(
    `${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, Node ${process.versions.node}; ` +
      `${pinned ? `servers pinned to CPU ${SERVER_CPU}, load generator to CPU ${LOAD_CPU}` : 'not pinned: the servers and the load generator share the cores'}` +
      (options.serverFlags.length > 0 ? `; servers started with ${options.serverFlags.join(' ')}` : '; servers on Node\'s default flags'),
  );
  console.log('');
  console.log(line(header));
  console.log(line(widths.map((width) => '-'.repeat(width))));
  for (const cells of rows) console.log(line(cells));

  const addedP99 = percentile(v.roundTripsMs, 0.99) - percentile(b.roundTripsMs, 0.99);
  const oneCore = pinned || v.serverCpuPercent < 100;
  const met = n >= TARGET.calls && addedP99 < TARGET.p99AddedMs && v.lost === 0 && oneCore;
  console.log('');
  console.log(
    `Target (${TARGET.calls} calls on one core, p99 added < ${TARGET.p99AddedMs} ms, ${options.codec}): ${met ? 'met' : 'NOT met'} ` +
      `(${n} calls, p99 added ${ms(addedP99)} ms, ${v.lost} frames lost, server at ${v.serverCpuPercent.toFixed(0)} % of one core${pinned ? ', pinned to it' : ''}).`,
  );
  return [b, v];
}

async function main() {
  const options = readOptions();
  const started: ServerProcess[] = [];
  const fail = (error: unknown) => {
    console.error(`bench/media failed: ${error instanceof Error ? error.message : String(error)}`);
    for (const server of started) server.kill();
    process.exit(1);
  };
  // Bounded in time whatever happens: set-up, every segment, and the shutdowns.
  const segmentMs = (options.warmup + options.seconds / options.rounds) * 1000 + options.echoDelayMs + DRAIN_MS + 1000;
  const budgetMs = 120_000 + options.calls * 500 + 2 * options.rounds * segmentMs;
  setTimeout(() => fail(new Error(`took longer than ${Math.round(budgetMs / 1000)} s`)), budgetMs).unref();

  const pinned = options.pin && os.availableParallelism() >= 2 && pinToCpu(process.pid, LOAD_CPU);
  if (options.pin && !pinned) progress('not pinning to CPUs (needs 2 cores and taskset)');
  const profileDir = options.cpuProf ? fs.mkdtempSync(path.join(os.tmpdir(), 'voxline-bench-profile-')) : null;

  try {
    const voxline = await startVoxline(options, profileDir, started);
    const base = await startBareWs(options);
    started.push(base.server);
    for (const target of [base, voxline]) {
      target.server.onCrash = fail;
      if (pinned && !pinToCpu(target.server.pid, SERVER_CPU)) throw new Error(`could not pin the ${target.name} server to CPU ${SERVER_CPU}`);
    }
    for (let round = 0; round < options.rounds; round += 1) {
      for (const target of round % 2 === 0 ? [base, voxline] : [voxline, base]) await runSegment(target, round, options, pinned);
    }
    // With every call still up, after a full collection: what the calls themselves hold.
    for (const target of [base, voxline]) target.loaded = await settledUsage(target.server);
    for (const target of [base, voxline]) for (const socket of target.sockets) socket.close(1000, 'bench done');
    await sleep(500);
    for (const target of [base, voxline]) await target.server.stop();

    const results = report(options, pinned, base, voxline);
    if (profileDir) console.log(`\nCPU profile of the Voxline server (whole run, set-up included): ${profileDir}`);
    const broken = results.filter((t) => t.droppedSockets > 0 || t.malformed > 0 || t.silentStreams > 0);
    if (broken.length > 0) throw new Error(broken.map((t) => `${t.droppedSockets} sockets dropped, ${t.malformed} malformed frames, ${t.silentStreams} streams heard silent`).join('; '));
  } catch (error) {
    fail(error);
  }
}

void main().catch((error: unknown) => {
  console.error(`bench/media: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
