/** Frames of one direction of a call. */
export interface DirectionFrames {
  sent: number;
  /** Received in order, each once. */
  received: number;
  /** Altered, of another call or of another run. */
  foreign: number;
  /** The longest stretch without a frame arriving, from the first frame sent to the last (arrival-gaps.ts), and when it ended (performance.now()). */
  longestGapMs: number;
  longestGapEndedAt: number | null;
}

/** What the bench saw of one call it tried to place, from the placement to the hang-up. */
export interface CallObservation {
  /** Answers 503 server_draining to placing it. */
  refusals: number;
  /** The instance that put it through, which holds it (the balancer's UPSTREAM_HEADER); null when none did. */
  heldBy: string | null;
  /** When it was put through and when its hang-up was answered (performance.now()); null when it was not. */
  placedAt: number | null;
  hungUpAt: number | null;
  /** Why it was never put through (refused twice, the callee not listening, an error); null when it was. */
  notPlaced: string | null;
  /** Put through, why it never got its audio both ways (not answered, a media socket refused); null when it did. */
  notConnected: string | null;
  /** What ended it before the caller hung up: a media socket closed by the server, or call.ended on the callee's tab. */
  endedByServer: string | null;
  /** What the caller's hang-up answered: the HTTP status, and the call record's outcome and reason. */
  hangup: { status: number; outcome: string | null; reason: string | null } | null;
  callerToCallee: DirectionFrames;
  calleeToCaller: DirectionFrames;
}

/** Frames that stop for longer than this mid-call drop the call: a person hears a second of silence. */
const MAX_GAP_MS = 1_000;

type Verdict = { kind: 'completed' } | { kind: 'dropped' | 'not-placed' | 'not-connected'; why: string };

/**
 * One call's verdict. Completed: put through, answered, audio both ways without a gap over
 * MAX_GAP_MS, and ended by its caller's hang-up (200, outcome completed, no reason). Dropped: it
 * connected, and then anything else ended it or broke its audio.
 */
export function judgeCall(call: CallObservation): Verdict {
  if (call.notPlaced !== null) return { kind: 'not-placed', why: call.notPlaced };
  if (call.notConnected !== null) return { kind: 'not-connected', why: call.notConnected };
  if (call.endedByServer !== null) return { kind: 'dropped', why: call.endedByServer };
  const { hangup } = call;
  if (!hangup) return { kind: 'dropped', why: 'never hung up' };
  if (hangup.status !== 200 || hangup.outcome !== 'completed' || hangup.reason !== null) {
    return { kind: 'dropped', why: `the hang-up answered ${hangup.status}, outcome ${hangup.outcome ?? 'none'}${hangup.reason ? `, "${hangup.reason}"` : ''}` };
  }
  for (const [direction, frames] of [['caller→callee', call.callerToCallee], ['callee→caller', call.calleeToCaller]] as const) {
    if (frames.received === 0) return { kind: 'dropped', why: `no frame arrived ${direction}` };
    if (frames.longestGapMs > MAX_GAP_MS) return { kind: 'dropped', why: `frames stopped ${direction} for ${Math.round(frames.longestGapMs)} ms` };
    if (frames.foreign > 0) return { kind: 'dropped', why: `${frames.foreign} frames altered or of another call ${direction}` };
  }
  return { kind: 'completed' };
}

interface FramesTally {
  sent: number;
  received: number;
  /** Sent and not received in order. */
  lost: number;
  foreign: number;
  longestGapMs: number;
}

export interface CallTally {
  /** Calls the bench tried to place. */
  attempted: number;
  /** Put through (201, ringing). */
  placed: number;
  completed: number;
  dropped: string[];
  notPlaced: string[];
  notConnected: string[];
  /** 503 server_draining answers, the calls they refused at least once, and of those the ones put through on the retry. */
  refusals: number;
  refusedCalls: number;
  placedOnRetry: number;
  callerToCallee: FramesTally;
  calleeToCaller: FramesTally;
}

function framesTally(directions: DirectionFrames[]): FramesTally {
  const sum = (pick: (frames: DirectionFrames) => number) => directions.reduce((total, frames) => total + pick(frames), 0);
  const sent = sum((frames) => frames.sent);
  const received = sum((frames) => frames.received);
  return { sent, received, lost: sent - received, foreign: sum((frames) => frames.foreign), longestGapMs: Math.max(0, ...directions.map((frames) => frames.longestGapMs)) };
}

/** The run's calls counted by verdict, with the refusals and the frames each way of the calls put through. */
export function tallyCalls(calls: CallObservation[]): CallTally {
  const verdicts = calls.map(judgeCall);
  const whys = (kind: Verdict['kind']) => verdicts.flatMap((verdict) => (verdict.kind === kind && 'why' in verdict ? [verdict.why] : []));
  const placed = calls.filter((call) => call.notPlaced === null);
  const connected = placed.filter((call) => call.notConnected === null);
  const refused = calls.filter((call) => call.refusals > 0);
  return {
    attempted: calls.length,
    placed: placed.length,
    completed: verdicts.filter((verdict) => verdict.kind === 'completed').length,
    dropped: whys('dropped'),
    notPlaced: whys('not-placed'),
    notConnected: whys('not-connected'),
    refusals: calls.reduce((total, call) => total + call.refusals, 0),
    refusedCalls: refused.length,
    placedOnRetry: refused.filter((call) => call.notPlaced === null).length,
    callerToCallee: framesTally(connected.map((call) => call.callerToCallee)),
    calleeToCaller: framesTally(connected.map((call) => call.calleeToCaller)),
  };
}

/**
 * The calls instance `name` held when it was sent SIGTERM at `at` (put through by it before, not
 * yet hung up), and how many of them completed: the calls its drain had to keep up.
 */
export function callsHeldThrough(calls: CallObservation[], name: string, at: number): { held: number; completed: number } {
  const held = calls.filter((call) => call.heldBy === name && call.placedAt !== null && call.placedAt < at && (call.hungUpAt === null || call.hungUpAt > at));
  return { held: held.length, completed: held.filter((call) => judgeCall(call).kind === 'completed').length };
}

/**
 * When the stretches over MAX_GAP_MS without frames ended, in whole seconds since `since`, with the
 * number of calls each: many calls at once point at a stall of the machine or an instance.
 */
export function gapMoments(calls: CallObservation[], since: number): { second: number; calls: number }[] {
  const seconds = new Map<number, number>();
  for (const call of calls) {
    const ends = [call.callerToCallee, call.calleeToCaller].filter((frames) => frames.longestGapMs > MAX_GAP_MS && frames.longestGapEndedAt !== null).map((frames) => frames.longestGapEndedAt!);
    if (ends.length === 0) continue;
    const second = Math.floor((Math.min(...ends) - since) / 1000);
    seconds.set(second, (seconds.get(second) ?? 0) + 1);
  }
  return [...seconds].sort(([a], [b]) => a - b).map(([second, count]) => ({ second, calls: count }));
}
