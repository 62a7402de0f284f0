import { describe, expect, it } from 'vitest';
import { tallyCalls, type CallObservation } from './call-tally';
import { runProblems, summariseTabs, type InstanceEnd, type TabFigures } from './report';

const tab = (overrides: Partial<TabFigures> = {}): TabFigures => ({
  drains: 0,
  drainedAgain: 0,
  refusedListening: 0,
  cutOff: 0,
  failedConnections: 0,
  unreachableMs: 0,
  longestUnreachableMs: 0,
  unreachableAtEnd: false,
  ...overrides,
});

const end = (name: string, exitCode: number | null): InstanceEnd => ({
  name,
  readyAfterMs: 5_000,
  sigtermAt: 0,
  unreadyAt: 300,
  exitedAt: exitCode === null ? null : 30_000,
  exitCode,
  heldAtSigterm: { held: 0, completed: 0 },
});

const completed: CallObservation = {
  refusals: 0,
  heldBy: 'Voxline 1',
  placedAt: 1_000,
  hungUpAt: 11_000,
  notPlaced: null,
  notConnected: null,
  endedByServer: null,
  hangup: { status: 200, outcome: 'completed', reason: null },
  callerToCallee: { sent: 100, received: 100, foreign: 0, longestGapMs: 40, longestGapEndedAt: 5_000 },
  calleeToCaller: { sent: 100, received: 100, foreign: 0, longestGapMs: 40, longestGapEndedAt: 5_000 },
};

describe('summariseTabs', () => {
  it('counts the tabs that moved, and how long those that lost listening went without it', () => {
    const summary = summariseTabs([
      tab(),
      tab({ drains: 1, unreachableMs: 400, longestUnreachableMs: 400 }),
      tab({ drains: 2, drainedAgain: 1, refusedListening: 1, unreachableMs: 2_600, longestUnreachableMs: 2_000 }),
      tab({ drains: 1, cutOff: 1, failedConnections: 2, unreachableMs: 1_000, longestUnreachableMs: 1_000 }),
    ]);
    expect(summary).toEqual({
      tabs: 4,
      moved: 3,
      drainedAgain: 1,
      refusedListening: 1,
      cutOff: 1,
      failedConnections: 2,
      lostListening: 3,
      meanMs: 1_333.3333333333333,
      medianMs: 1_000,
      maxMs: 2_600,
      longestStretchMs: 2_000,
      notBack: 0,
    });
  });

  it('counts a tab still not listening at the end', () => {
    expect(summariseTabs([tab({ drains: 1, unreachableAtEnd: true })])).toMatchObject({ lostListening: 1, notBack: 1 });
  });
});

describe('runProblems', () => {
  it('finds none in a run where every call completed and every instance exited 0', () => {
    expect(runProblems(tallyCalls([completed]), [end('Voxline 1', 0), end('Voxline 1b', 0)], summariseTabs([tab()]))).toEqual([]);
  });

  it('fails a run with a dropped call, a call not put through, an instance that exited badly or not at all, a tab not back', () => {
    const dropped: CallObservation = { ...completed, endedByServer: 'the caller\'s media socket was closed by the server (1001 The server is shutting down)' };
    const refused: CallObservation = { ...completed, refusals: 2, notPlaced: 'refused again after 2000 ms', hangup: null };
    expect(runProblems(tallyCalls([completed, dropped, refused]), [end('Voxline 1', 1), end('Voxline 2', null)], summariseTabs([tab({ unreachableAtEnd: true })]))).toEqual([
      "1 calls dropped: the caller's media socket was closed by the server (1001 The server is shutting down)",
      '1 calls not put through: refused again after 2000 ms',
      'Voxline 1 exited with 1',
      'Voxline 2 did not exit',
      '1 tabs were not listening again by the end',
    ]);
  });

  it('fails a run that put no call through', () => {
    expect(runProblems(tallyCalls([]), [], summariseTabs([]))).toEqual(['no call was put through']);
  });
});
