import type { CallTally } from './call-tally';
import { secondRanges } from './load-watch';

/** What one listening tab went through over the run (moving-tab.ts). */
export interface TabFigures {
  drains: number;
  drainedAgain: number;
  refusedListening: number;
  cutOff: number;
  failedConnections: number;
  /** Time neither listening nor on a call, summed, and its longest stretch, ms. */
  unreachableMs: number;
  longestUnreachableMs: number;
  /** Still not listening when the run ended. */
  unreachableAtEnd: boolean;
}

interface TabsSummary {
  tabs: number;
  moved: number;
  drainedAgain: number;
  /** Reconnections that reached a draining instance before the balancer saw it draining. */
  refusedListening: number;
  cutOff: number;
  failedConnections: number;
  /** Tabs that were unreachable at some point, and their time unreachable: mean, median and most, ms. */
  lostListening: number;
  meanMs: number;
  medianMs: number;
  maxMs: number;
  longestStretchMs: number;
  notBack: number;
}

export function summariseTabs(tabs: TabFigures[]): TabsSummary {
  const lost = tabs
    .filter((tab) => tab.unreachableMs > 0 || tab.unreachableAtEnd)
    .map((tab) => tab.unreachableMs)
    .sort((a, b) => a - b);
  const count = (pick: (tab: TabFigures) => boolean) => tabs.filter(pick).length;
  return {
    tabs: tabs.length,
    moved: count((tab) => tab.drains > 0),
    drainedAgain: count((tab) => tab.drainedAgain > 0),
    refusedListening: tabs.reduce((total, tab) => total + tab.refusedListening, 0),
    cutOff: count((tab) => tab.cutOff > 0),
    failedConnections: tabs.reduce((total, tab) => total + tab.failedConnections, 0),
    lostListening: lost.length,
    meanMs: lost.length === 0 ? 0 : lost.reduce((total, ms) => total + ms, 0) / lost.length,
    medianMs: lost.length === 0 ? 0 : lost[Math.floor((lost.length - 1) / 2)]!,
    maxMs: lost.at(-1) ?? 0,
    longestStretchMs: Math.max(0, ...tabs.map((tab) => tab.longestUnreachableMs)),
    notBack: count((tab) => tab.unreachableAtEnd),
  };
}

/**
 * An instance's end: its name; when it was sent SIGTERM, when the balancer saw it not ready and
 * when it exited (ms on the bench's clock); its exit code; and the calls it held at its SIGTERM.
 */
export interface InstanceEnd {
  name: string;
  /** From its start to the balancer first seeing it ready, ms. */
  readyAfterMs: number | null;
  sigtermAt: number | null;
  unreadyAt: number | null;
  exitedAt: number | null;
  exitCode: number | null;
  heldAtSigterm: { held: number; completed: number };
}

/** What makes the run fail: a call dropped, or not put through or connected, an instance exiting badly, a tab not back. */
export function runProblems(tally: CallTally, ends: InstanceEnd[], tabs: TabsSummary): string[] {
  const first = (whys: string[]) => `: ${[...new Set(whys)].slice(0, 3).join('; ')}`;
  return [
    ...(tally.placed === 0 ? ['no call was put through'] : []),
    ...(tally.dropped.length > 0 ? [`${tally.dropped.length} calls dropped${first(tally.dropped)}`] : []),
    ...(tally.notConnected.length > 0 ? [`${tally.notConnected.length} calls put through never connected${first(tally.notConnected)}`] : []),
    ...(tally.notPlaced.length > 0 ? [`${tally.notPlaced.length} calls not put through${first(tally.notPlaced)}`] : []),
    ...ends.filter((end) => end.exitCode !== 0).map((end) => `${end.name} ${end.exitedAt === null ? 'did not exit' : `exited with ${end.exitCode}`}`),
    ...(tabs.notBack > 0 ? [`${tabs.notBack} tabs were not listening again by the end`] : []),
  ];
}

/** What else was going on: when calls' frames stopped, the load generator's stalls, the machine's CPU. */
export interface LoadContext {
  gaps: { second: number; calls: number }[];
  longestStallMs: number;
  stalls: [number, number][];
  /** The machine's CPU over the load, % of all its cores; null where it cannot be read. */
  cpuPercent: number | null;
  saturatedSeconds: number[];
  watchedSeconds: number;
}

const STALLS_LISTED = 8;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const percent = (part: number, whole: number) => `${((part / Math.max(1, whole)) * 100).toFixed(3)} %`;

/** The report's lines: calls, refusals, frames, tabs, then each instance's drain and exit. */
export function reportLines(tally: CallTally, tabs: TabsSummary, ends: InstanceEnd[], loadStartedAt: number, context: LoadContext): string[] {
  const since = (at: number | null) => (at === null ? 'never' : `+${seconds(at - loadStartedAt)}`);
  const frames = (label: string, figures: CallTally['callerToCallee']) =>
    `frames ${label}: ${figures.sent} sent, ${figures.lost} lost (${percent(figures.lost, figures.sent)}), ${figures.foreign} altered or misdelivered; longest stretch without one ${Math.round(figures.longestGapMs)} ms`;
  return [
    `calls placed (put through) / completed normally / dropped: ${tally.placed} / ${tally.completed} / ${tally.dropped.length}`,
    `calls not put through / put through but not connected: ${tally.notPlaced.length} / ${tally.notConnected.length}`,
    `placements refused by a draining instance (503 server_draining): answers ${tally.refusals}, calls refused ${tally.refusedCalls}, put through on the retry ${tally.placedOnRetry}`,
    frames('caller→callee', tally.callerToCallee),
    frames('callee→caller', tally.calleeToCaller),
    `stretches over 1 s without frames: ${context.gaps.length === 0 ? 'none' : context.gaps.map((gap) => `${gap.calls} calls at +${gap.second} s`).join(', ')}`,
    `load generator's longest event-loop stall ${Math.round(context.longestStallMs)} ms` +
      (context.stalls.length === 0
        ? ''
        : `; stalls over 250 ms at ${context.stalls
            .slice(0, STALLS_LISTED)
            .map(([at, ms]) => `+${at.toFixed(1)} s (${Math.round(ms)} ms)`)
            .join(', ')}${context.stalls.length > STALLS_LISTED ? ` and ${context.stalls.length - STALLS_LISTED} more` : ''}`),
    `machine CPU over the load: ${context.cpuPercent === null ? 'not read' : `${context.cpuPercent.toFixed(0)} % of its cores`}, ` +
      `all cores busy (≥ 95 %) in ${context.saturatedSeconds.length} of ${context.watchedSeconds} seconds${context.saturatedSeconds.length > 0 ? ` (${secondRanges(context.saturatedSeconds)})` : ''}`,
    `listening tabs: ${tabs.tabs}; moved by server.draining ${tabs.moved}, of which told again before listening anywhere (the browser backs off 2 s, then 5 s) ${tabs.drainedAgain}; ` +
      `reconnections that reached a draining instance before the balancer saw it ${tabs.refusedListening}; cut off without a word ${tabs.cutOff}; connections that did not open ${tabs.failedConnections}`,
    `tabs that lost listening (outside their calls): ${tabs.lostListening}, not listening for ${seconds(tabs.meanMs)} on average, median ${seconds(tabs.medianMs)}, most ${seconds(tabs.maxMs)} (longest single stretch ${seconds(tabs.longestStretchMs)}); not listening again by the end: ${tabs.notBack}`,
    ...ends.map(
      (end) =>
        `${end.name}: ready ${end.readyAfterMs === null ? 'never' : `${seconds(end.readyAfterMs)} after its start`}; SIGTERM ${since(end.sigtermAt)} holding ${end.heldAtSigterm.held === 0 ? 'no call' : `${end.heldAtSigterm.held} calls (${end.heldAtSigterm.completed} of them completed normally)`}, ` +
        `not ready at the balancer ${end.unreadyAt === null || end.sigtermAt === null ? 'never seen' : `${seconds(end.unreadyAt - end.sigtermAt)} later`}, ` +
        `exited ${end.exitedAt === null || end.sigtermAt === null ? 'never' : `${seconds(end.exitedAt - end.sigtermAt)} after it (drain time)`} with code ${end.exitCode ?? 'none'}`,
    ),
  ];
}
