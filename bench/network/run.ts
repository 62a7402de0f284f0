import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { ListenerFigures } from './audio-analysis';
import { launchParty, type Party, startReceiving } from './browser-party';
import { type CallCapture, captureCall, warmUpCall } from './call-capture';
import { callFigures, listenersOver } from './call-figures';
import { profiles } from './profiles';
import { recoveryDescription, recoveryPhases, recoveryRow } from './recovery-run';
import { type RecoveryRow, recoveryTable, type ResultRow, resultsTable } from './results-table';
import { type Scenario, type ScenarioName, scenarioNames, soundTestScenario, twoUsersScenario } from './scenarios';
import { shapedChromium } from './shaped-chromium';
import { writeTalkerWav } from './test-signal';
import { startVoxline, type Transport, type VoxlineUnderTest } from './voxline-under-test';

/**
 * npm run bench:network: real Chromium on each end of the sound-test line and of a call between
 * two users, over WebRTC and over the websocket fallback, through links impaired in user space
 * (bench/network/README.md), measured from the audio the pages play. Prints Markdown tables.
 *
 *   npm run bench:network -- --profiles clean,mobile --transports webrtc --scenarios two-users --seconds 10
 */

const transports: readonly Transport[] = ['webrtc', 'websocket'];
const RECOVERY = 'recovery';
/** The narrow profile's rate cap enforced by the kernel (tbf) on the browsers' whole traffic, the relay and proxy left clean. */
const NARROW_TBF = 'narrow-tbf';
const profileNames = [...(Object.keys(profiles) as (keyof typeof profiles)[]), NARROW_TBF, RECOVERY] as const;
type ProfileName = (typeof profileNames)[number];
/** The unmeasured call that warms up each set of browsers. */
const WARM_UP_MS = 3_000;
/** Opus at its lowest rate, with its packets' headers, is above this. */
const MIN_RELAYED_KBPS = 8;

function listOption<T extends string>(value: string, allowed: readonly T[], name: string): T[] {
  const chosen = value.split(',').filter(Boolean);
  const unknown = chosen.filter((each) => !allowed.includes(each as T));
  if (unknown.length > 0 || chosen.length === 0) throw new Error(`--${name} takes a comma-separated list of ${allowed.join(', ')} (got ${value})`);
  return chosen as T[];
}

const { values } = parseArgs({
  options: {
    profiles: { type: 'string', default: profileNames.join(',') },
    transports: { type: 'string', default: transports.join(',') },
    scenarios: { type: 'string', default: scenarioNames.join(',') },
    seconds: { type: 'string', default: '15' },
    seed: { type: 'string', default: '1' },
  },
});
const settings = {
  profiles: listOption(values.profiles, profileNames, 'profiles'),
  transports: listOption(values.transports, transports, 'transports'),
  scenarios: listOption(values.scenarios, scenarioNames, 'scenarios'),
  seconds: Number(values.seconds),
  seed: Number(values.seed),
};
if (!(settings.seconds >= 5)) throw new Error('--seconds must be 5 or more');

const rows: ResultRow[] = [];
const recoveryRows: RecoveryRow[] = [];

function note(line: string) {
  process.stderr.write(`[bench:network] ${line}\n`);
}

function listenerSummary({ delayP50Ms, delayP95Ms, longestGapMs, correlation, unmatchedAtMs }: ListenerFigures) {
  const round = (value: number | null) => (value === null ? '–' : Math.round(value));
  return `${round(delayP50Ms)}/${round(delayP95Ms)} ms, gap ${longestGapMs} ms, r ${correlation?.toFixed(2) ?? '–'}, ${unmatchedAtMs.length} stretches unmatched`;
}

function measuredRow(capture: CallCapture, scenario: Scenario, transport: Transport, profile: string): ResultRow {
  return {
    scenario: scenario.name,
    transport,
    transportUsed: capture.transportUsed,
    profile,
    figures: callFigures(listenersOver(capture, capture.fromMs, capture.toMs), capture.intendedDelayMs),
    concealedShare: capture.concealedShare,
    jitterBufferMs: capture.jitterBufferMs,
    kbpsUp: capture.kbpsUp,
    kbpsDown: capture.kbpsDown,
    serverCpuShare: capture.serverCpuShare,
  };
}

async function measure(voxline: VoxlineUnderTest, scenario: Scenario, transport: Transport, profile: ProfileName) {
  const webrtc = transport === 'webrtc';
  if (profile === RECOVERY) {
    const row = recoveryRow(await captureCall(voxline, scenario, recoveryPhases, { webrtc }), scenario, transport);
    recoveryRows.push(row);
    note(`${scenario.name} ${transport} recovery: ${recoveryTable([row]).split('\n').at(-1)}`);
    return;
  }
  const capture = await captureCall(voxline, scenario, [{ profile: profile === NARROW_TBF ? profiles.clean : profiles[profile], ms: settings.seconds * 1000 }], { webrtc });
  const row = measuredRow(capture, scenario, transport, profile);
  rows.push(row);
  note(`${scenario.name} ${transport} ${profile}: ${resultsTable([row]).split('\n').at(-1)}`);
  note(`  each listener: ${listenersOver(capture, capture.fromMs, capture.toMs).map(listenerSummary).join('; ')}; bench event loop p99 ${capture.benchLoopDelayP99Ms.toFixed(1)} ms`);
  // A WebRTC call's packets, 50 a second each way, must all cross the relay; a trickle means ICE found a way around it.
  if (capture.transportUsed === 'webrtc' && Math.min(capture.kbpsUp, capture.kbpsDown) < MIN_RELAYED_KBPS) note('  the relay carried almost nothing: the audio went around it, and this row measured an unimpaired link');
}

/** Gets a party back to an idle dialer after a failed measurement, whatever state its call was left in. */
async function reset(parties: Party[]) {
  for (const { page } of parties) {
    await page
      .getByRole('region', { name: 'Active call' })
      .getByRole('button', { name: 'End call' })
      .click({ timeout: 2_000 })
      .catch(() => {});
    await page.goto('/dialer').catch(() => {});
  }
}

/** Where a run's browsers are: on the host, or in the namespace behind tbf; each place has users and numbers of its own. */
interface Placement {
  index: number;
  executablePath?: string;
  /** Once the parties are signed in and their pages loaded. */
  beforeCalls?: () => Promise<void>;
}

const AREA_CODES = [
  ['917', '718'],
  ['646', '312'],
];

function failedRow(scenario: ScenarioName, transport: Transport, profile: ProfileName, error: unknown): ResultRow {
  note(`${scenario} ${transport} ${profile} failed: ${(error as Error).stack ?? String(error)}`);
  return { scenario, transport, transportUsed: transport, profile, figures: null, concealedShare: null, jitterBufferMs: null, kbpsUp: 0, kbpsDown: 0, serverCpuShare: 0, error: (error as Error).message.split('\n')[0] };
}

/** Signs the parties of the chosen scenarios in, in their own browsers; the callee listens. */
async function partiesFor(voxline: VoxlineUnderTest, wavs: string[], { index, executablePath }: Placement, parties: Party[]): Promise<Scenario[]> {
  const party = async (name: string, i: number) => {
    const launched = await launchParty({ name, wavPath: wavs[i]!, baseUrl: voxline.url, areaCode: AREA_CODES[index]![i]!, clientAddress: `10.90.${index}.${i + 1}`, relay: voxline.relay, executablePath });
    parties.push(launched);
    return launched;
  };
  const caller = await party('Ada', 0);
  const scenarios: Scenario[] = [];
  for (const name of settings.scenarios satisfies ScenarioName[]) {
    if (name === 'sound-test') scenarios.push(soundTestScenario(caller));
    if (name === 'two-users') {
      const callee = await party('Bea', 1);
      await startReceiving(callee);
      scenarios.push(twoUsersScenario(caller, callee));
    }
  }
  return scenarios;
}

async function runParties(voxline: VoxlineUnderTest, transport: Transport, wavs: string[], profileList: ProfileName[], placement: Placement) {
  const parties: Party[] = [];
  try {
    let scenarios: Scenario[];
    try {
      scenarios = await partiesFor(voxline, wavs, placement, parties);
      await placement.beforeCalls?.();
      await warmUpCall(voxline, scenarios[0]!, { profile: profiles.clean, ms: WARM_UP_MS });
    } catch (error) {
      for (const scenario of settings.scenarios) for (const profile of profileList) rows.push(failedRow(scenario, transport, profile, error));
      return;
    }
    for (const scenario of scenarios) {
      for (const profile of profileList) {
        try {
          await measure(voxline, scenario, transport, profile);
        } catch (error) {
          rows.push(failedRow(scenario.name, transport, profile, error));
          await reset(scenario.parties);
        }
      }
    }
  } finally {
    await Promise.all(parties.map(({ browser }) => browser.close().catch(() => {})));
  }
}

async function runTransport(transport: Transport, wavs: string[], dir: string) {
  note(`starting Voxline with ${transport === 'webrtc' ? 'WebRTC' : 'WEBRTC=false (the websocket fallback)'}`);
  const voxline = await startVoxline(transport, settings.seed);
  try {
    const onHost = settings.profiles.filter((profile) => profile !== NARROW_TBF);
    if (onHost.length > 0) await runParties(voxline, transport, wavs, onHost, { index: 0 });
    if (settings.profiles.includes(NARROW_TBF)) {
      const shaped = await shapedChromium(dir).catch((error: Error) => {
        note(`${NARROW_TBF} skipped: ${error.message}`);
        return null;
      });
      if (shaped) {
        try {
          await runParties(voxline, transport, wavs, [NARROW_TBF], { index: 1, executablePath: shaped.executablePath, beforeCalls: () => shaped.setRateCap(profiles.narrow.rateCap) });
        } finally {
          await shaped.close();
        }
      }
    }
  } finally {
    await voxline.stop();
  }
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'voxline-bench-network-'));
  const startedAt = new Date();
  const loadAtStart = os.loadavg()[0]!;
  // The relay and the proxy run in this process: the network they stand for must not wait for the CPU behind the browsers.
  try {
    os.setPriority(-10);
  } catch {
    note('could not raise this process’s priority (not root): the relay and proxy compete for the CPU with the browsers');
  }
  try {
    const wavs = [writeTalkerWav(dir, settings.seed), writeTalkerWav(dir, settings.seed + 1)];
    for (const transport of settings.transports) {
      await runTransport(transport, wavs, dir).catch((error: unknown) => {
        for (const scenario of settings.scenarios) for (const profile of settings.profiles) rows.push(failedRow(scenario, transport, profile, error));
      });
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  console.log(`## bench:network, ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC, at ${commit} (plus the working tree)\n`);
  const [loadStart, loadEnd] = [loadAtStart, os.loadavg()[0]!].map((load) => load.toFixed(1));
  console.log(
    `${settings.seconds} s a call after 2 s to settle, seed ${settings.seed}, ${os.cpus().length} cores, load average ${loadStart} at the start and ${loadEnd} at the end. ` +
      'Links impaired in user space: the UDP relay carries WebRTC, the TCP proxy HTTP and the websocket; `narrow` is their token bucket (200 kbit/s each way), ' +
      '`narrow-tbf` the same cap enforced by the kernel (tbf on a network namespace’s veth pair, both browsers inside), the relay and proxy clean. ' +
      'Mouth-to-ear is from the microphone as the app captured it to the audio the listening page played (beyond the sound-test line’s own 300 ms echo); ' +
      'kbit/s are the media link’s payload bytes (UDP or TCP, no IP headers) per browser; server CPU is the server process’s CPU time over the window.\n',
  );
  if (rows.length > 0) console.log(`${resultsTable(rows)}\n`);
  if (recoveryRows.length > 0) console.log(`Recovery: ${recoveryDescription}\n\n${recoveryTable(recoveryRows)}`);
}

await main();
