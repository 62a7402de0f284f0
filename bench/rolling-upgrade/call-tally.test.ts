import { describe, expect, it } from 'vitest';
import { callsHeldThrough, gapMoments, judgeCall, tallyCalls, type CallObservation, type DirectionFrames } from './call-tally';

const frames = (overrides: Partial<DirectionFrames> = {}): DirectionFrames => ({ sent: 500, received: 500, foreign: 0, longestGapMs: 45, longestGapEndedAt: 2_000, ...overrides });

/** A call that went as it should: put through, answered, audio both ways, hung up by its caller. */
const call = (overrides: Partial<CallObservation> = {}): CallObservation => ({
  refusals: 0,
  heldBy: 'Voxline 1',
  placedAt: 1_000,
  hungUpAt: 21_000,
  notPlaced: null,
  notConnected: null,
  endedByServer: null,
  hangup: { status: 200, outcome: 'completed', reason: null },
  callerToCallee: frames(),
  calleeToCaller: frames(),
  ...overrides,
});

describe('judgeCall', () => {
  it('completes a call hung up by its caller with its audio flowing both ways', () => {
    expect(judgeCall(call())).toEqual({ kind: 'completed' });
    expect(judgeCall(call({ refusals: 1, callerToCallee: frames({ received: 499, longestGapMs: 1_000 }) }))).toEqual({ kind: 'completed' });
  });

  it('drops a call the server ended before the hang-up', () => {
    const ended = call({ endedByServer: "the callee's media socket was closed by the server (1001 The server is shutting down)" });
    expect(judgeCall(ended)).toEqual({ kind: 'dropped', why: "the callee's media socket was closed by the server (1001 The server is shutting down)" });
  });

  it('drops a call whose hang-up found it ended otherwise, or failed', () => {
    expect(judgeCall(call({ hangup: { status: 200, outcome: 'completed', reason: 'The server is shutting down' } }))).toEqual({
      kind: 'dropped',
      why: 'the hang-up answered 200, outcome completed, "The server is shutting down"',
    });
    expect(judgeCall(call({ hangup: { status: 404, outcome: null, reason: null } }))).toMatchObject({ kind: 'dropped', why: 'the hang-up answered 404, outcome none' });
    expect(judgeCall(call({ hangup: null }))).toEqual({ kind: 'dropped', why: 'never hung up' });
  });

  it('drops a call whose frames stopped for more than a second, never came, or came altered', () => {
    expect(judgeCall(call({ calleeToCaller: frames({ longestGapMs: 1_001.4 }) }))).toEqual({ kind: 'dropped', why: 'frames stopped callee→caller for 1001 ms' });
    expect(judgeCall(call({ callerToCallee: frames({ received: 0, longestGapMs: 20_000 }) }))).toEqual({ kind: 'dropped', why: 'no frame arrived caller→callee' });
    expect(judgeCall(call({ callerToCallee: frames({ foreign: 2 }) }))).toEqual({ kind: 'dropped', why: '2 frames altered or of another call caller→callee' });
  });

  it('tells a call never put through, or never connected, from a dropped one', () => {
    expect(judgeCall(call({ notPlaced: 'refused again after 2000 ms', hangup: null }))).toEqual({ kind: 'not-placed', why: 'refused again after 2000 ms' });
    expect(judgeCall(call({ notConnected: 'no call rang and was answered within 20 s', endedByServer: 'a socket closed' }))).toEqual({
      kind: 'not-connected',
      why: 'no call rang and was answered within 20 s',
    });
  });
});

describe('tallyCalls', () => {
  it('counts the calls by verdict, the refusals and what the retries did, and the frames of the calls that connected', () => {
    const tally = tallyCalls([
      call({ callerToCallee: frames({ sent: 1_000, received: 998, longestGapMs: 120 }) }),
      call({ refusals: 1 }),
      call({ refusals: 2, notPlaced: 'refused again after 2000 ms', hangup: null, callerToCallee: frames({ sent: 0, received: 0 }), calleeToCaller: frames({ sent: 0, received: 0 }) }),
      call({ endedByServer: 'call.ended on the callee\'s tab before the hang-up (completed, "The server is shutting down")', calleeToCaller: frames({ sent: 300, received: 290, longestGapMs: 1_500 }) }),
      call({ notConnected: 'answering failed', callerToCallee: frames({ sent: 50, received: 0 }) }),
    ]);
    expect(tally).toEqual({
      attempted: 5,
      placed: 4,
      completed: 2,
      dropped: ['call.ended on the callee\'s tab before the hang-up (completed, "The server is shutting down")'],
      notPlaced: ['refused again after 2000 ms'],
      notConnected: ['answering failed'],
      refusals: 3,
      refusedCalls: 2,
      placedOnRetry: 1,
      callerToCallee: { sent: 2_000, received: 1_998, lost: 2, foreign: 0, longestGapMs: 120 },
      calleeToCaller: { sent: 1_300, received: 1_290, lost: 10, foreign: 0, longestGapMs: 1_500 },
    });
  });

  it('counts nothing for no calls', () => {
    expect(tallyCalls([])).toMatchObject({ attempted: 0, placed: 0, completed: 0, callerToCallee: { sent: 0, lost: 0, longestGapMs: 0 } });
  });
});

describe('callsHeldThrough', () => {
  it("counts the calls an instance held at its SIGTERM, and those of them that completed", () => {
    const calls = [
      call({ placedAt: 1_000, hungUpAt: 21_000 }),
      call({ placedAt: 4_000, hungUpAt: 30_000, endedByServer: 'a socket closed' }),
      call({ placedAt: 4_000, hungUpAt: null, hangup: null }),
      // Ended before the SIGTERM, put through after it, or held by the other instance.
      call({ placedAt: 1_000, hungUpAt: 4_000 }),
      call({ placedAt: 6_000, hungUpAt: 20_000 }),
      call({ heldBy: 'Voxline 2' }),
      call({ heldBy: null, placedAt: null, hungUpAt: null, notPlaced: 'refused again after 2000 ms' }),
    ];
    expect(callsHeldThrough(calls, 'Voxline 1', 5_000)).toEqual({ held: 3, completed: 1 });
  });
});

describe('gapMoments', () => {
  it('groups the calls whose frames stopped for over a second by the second the stretch ended in', () => {
    const calls = [
      call({ callerToCallee: frames({ longestGapMs: 1_500, longestGapEndedAt: 45_200 }) }),
      call({ calleeToCaller: frames({ longestGapMs: 1_200, longestGapEndedAt: 45_900 }), callerToCallee: frames({ longestGapMs: 1_100, longestGapEndedAt: 46_100 }) }),
      call({ callerToCallee: frames({ longestGapMs: 2_000, longestGapEndedAt: 80_000 }) }),
      call({ callerToCallee: frames({ longestGapMs: 900, longestGapEndedAt: 60_000 }) }),
    ];
    expect(gapMoments(calls, 10_000)).toEqual([
      { second: 35, calls: 2 },
      { second: 70, calls: 1 },
    ]);
  });
});
