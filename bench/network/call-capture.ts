import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Recording } from './audio-analysis';
import { readProbeStats, readRecordings, type ProbeStats } from './audio-probes';
import { latestTransport } from './browser-party';
import type { LinkProfile } from './impairment';
import { timeline } from './probe-timeline';
import type { Scenario } from './scenarios';
import type { VoxlineUnderTest } from './voxline-under-test';

/** A stretch of a measured call on one link profile. */
export interface Phase {
  profile: LinkProfile;
  ms: number;
}

/** What one call gave over its measured window; audio as recordings, the rest as figures for the whole window. */
export interface CallCapture {
  fromMs: number;
  toMs: number;
  /** When each phase began (wall time, ms). */
  phaseStartsMs: number[];
  /** How the audio travelled, as the server recorded it (or, where it does not say, as the probes saw it). */
  transportUsed: string;
  directions: { sent: Recording; heard: Recording }[];
  intendedDelayMs: number;
  /** Share of the played audio that the receiving end made up to hide late or lost audio; null when no end said. */
  concealedShare: number | null;
  /**
   * How long the audio played waited in the browsers' jitter buffers on average (ms), the part of
   * the mouth-to-ear delay that the receiving end chose; null on the websocket path.
   */
  jitterBufferMs: number | null;
  /** Kilobits a second on the media link, per browser in the call. */
  kbpsUp: number;
  kbpsDown: number;
  /** Server CPU time over wall time, for the one call. */
  serverCpuShare: number;
  /**
   * The 99th percentile of this process's event loop delay over the window (ms): how late the
   * relay and the proxy, which run here, may have passed packets on beyond what the profile says.
   */
  benchLoopDelayP99Ms: number;
}

/** The longest mouth-to-ear delay the analysis looks for. */
export const MAX_DELAY_MS = 4_000;
/** After the call connects, before the window opens: the transports settle (or fall back) first. */
const SETTLE_MS = 2_000;
/** How long a WebRTC connection may take before the bench measures whatever the call fell back to. */
const WEBRTC_CONNECT_MS = 10_000;
const LOOP_SAMPLE_MS = 10;
/** Audio the recorders have taken reaches the probe's buffers a few render quanta later. */
const RECORDER_LAG_MS = 300;

function connectedPeers(stats: ProbeStats) {
  return stats.peers.filter(({ connectionState }) => connectionState === 'connected');
}

type PeerCount = 'concealedSamples' | 'totalSamplesReceived' | 'jitterBufferDelay' | 'jitterBufferEmittedCount';

/** How much `key` grew between two readings of one probe, over its connected peers. */
function peerGrowth(then: ProbeStats, now: ProbeStats, key: PeerCount): number {
  const sum = (stats: ProbeStats) => connectedPeers(stats).reduce((n, peer) => n + peer[key], 0);
  return sum(now) - sum(then);
}

/** Concealed samples over samples played, summed over the listeners, from two readings of their probes. */
function concealedShare(before: ProbeStats[], after: ProbeStats[]): number | null {
  let concealed = 0;
  let total = 0;
  after.forEach((now, i) => {
    const then = before[i]!;
    const peers = connectedPeers(now);
    if (peers.length > 0) {
      concealed += peerGrowth(then, now, 'concealedSamples');
      total += peerGrowth(then, now, 'totalSamplesReceived');
    } else if (now.playback) {
      const played = now.playback.played - (then.playback?.played ?? 0);
      const made = now.playback.concealed - (then.playback?.concealed ?? 0);
      concealed += made;
      total += played + made;
    }
  });
  return total > 0 ? concealed / total : null;
}

/** The mean wait in the WebRTC jitter buffers of the samples played between two readings, over every listener. */
function jitterBufferMs(before: ProbeStats[], after: ProbeStats[]): number | null {
  let delay = 0;
  let emitted = 0;
  after.forEach((now, i) => {
    delay += peerGrowth(before[i]!, now, 'jitterBufferDelay');
    emitted += peerGrowth(before[i]!, now, 'jitterBufferEmittedCount');
  });
  return emitted > 0 ? (delay / emitted) * 1000 : null;
}

async function waitForWebRtc(scenario: Scenario) {
  const deadline = Date.now() + WEBRTC_CONNECT_MS;
  while (Date.now() < deadline) {
    const stats = await Promise.all(scenario.parties.map(({ page }) => readProbeStats(page)));
    if (stats.every((each) => connectedPeers(each).length > 0)) return;
    await sleep(250);
  }
}

/**
 * A call that is not measured, on a clean link: the first call of fresh browsers and a fresh
 * server is slower to settle (their code not yet compiled hot, Chromium's audio service starting).
 */
export async function warmUpCall(voxline: VoxlineUnderTest, scenario: Scenario, { profile, ms }: Phase) {
  voxline.setProfile(profile);
  await scenario.connect();
  try {
    await sleep(ms);
  } finally {
    await scenario.hangUp();
  }
}

/**
 * Places the scenario's call on the first phase's profile, lets it settle, measures through the
 * phases (switching the links' profile at each), hangs up, and hands back what the probes
 * recorded over the window with the figures read around it.
 */
export async function captureCall(voxline: VoxlineUnderTest, scenario: Scenario, phases: readonly Phase[], { webrtc }: { webrtc: boolean }): Promise<CallCapture> {
  const pages = scenario.parties.map(({ page }) => page);
  voxline.setProfile(phases[0]!.profile);
  await scenario.connect();
  try {
    if (webrtc) await waitForWebRtc(scenario);
    await sleep(SETTLE_MS);

    const statsBefore = await Promise.all(pages.map(readProbeStats));
    const bytesBefore = voxline.mediaBytes();
    const cpuBefore = voxline.cpuMs();
    const loopDelay = monitorEventLoopDelay({ resolution: LOOP_SAMPLE_MS });
    loopDelay.enable();
    const fromMs = Date.now();
    const phaseStartsMs: number[] = [];
    for (const phase of phases) {
      phaseStartsMs.push(Date.now());
      voxline.setProfile(phase.profile);
      await sleep(phase.ms);
    }
    const toMs = Date.now();
    loopDelay.disable();
    const cpuAfter = voxline.cpuMs();
    const bytesAfter = voxline.mediaBytes();
    const statsAfter = await Promise.all(pages.map(readProbeStats));
    await sleep(RECORDER_LAG_MS);

    const directions = await Promise.all(
      scenario.directions.map(async ({ talker, listener }) => ({
        sent: timeline(await readRecordings(talker.page, fromMs - MAX_DELAY_MS, toMs), 'sent', fromMs - MAX_DELAY_MS, toMs),
        heard: timeline(await readRecordings(listener.page, fromMs, toMs), 'played', fromMs, toMs),
      })),
    );
    const recorded = await latestTransport(scenario.parties[0]!);
    const seconds = (toMs - fromMs) / 1000;
    const perBrowser = (bytes: number) => (bytes * 8) / 1000 / seconds / scenario.parties.length;
    return {
      fromMs,
      toMs,
      phaseStartsMs,
      transportUsed: recorded ?? (connectedPeers(statsAfter[0]!).length > 0 ? 'webrtc' : 'websocket'),
      directions,
      intendedDelayMs: scenario.intendedDelayMs,
      concealedShare: concealedShare(statsBefore, statsAfter),
      jitterBufferMs: jitterBufferMs(statsBefore, statsAfter),
      kbpsUp: perBrowser(bytesAfter.up - bytesBefore.up),
      kbpsDown: perBrowser(bytesAfter.down - bytesBefore.down),
      serverCpuShare: (cpuAfter - cpuBefore) / (toMs - fromMs),
      // The histogram holds the time between its timer's turns: the interval itself, plus the lateness.
      benchLoopDelayP99Ms: loopDelay.percentile(99) / 1e6 - LOOP_SAMPLE_MS,
    };
  } finally {
    await scenario.hangUp();
  }
}
