import { describe, expect, it, vi } from 'vitest';
import { CallFiguresWatch } from './call-figures-watch';
import type { CallMediaLink } from './call-media-link';
import type { CallMediaStats } from './call-media-stats';
import { newLiveCall, type LiveCall } from './call-snapshot';

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

function setUp() {
  let tick: (() => void) | null = null;
  const readings: CallMediaStats[] = [];
  const link = { transport: 'webrtc', setMuted: vi.fn(), close: vi.fn(), stats: vi.fn(async () => readings.shift()!) } satisfies CallMediaLink;
  const warnings: string[] = [];
  const deps = {
    clock: { now: () => 0, after: () => () => undefined, every: vi.fn((_ms: number, run: () => void) => ((tick = run), () => (tick = null))) },
    notices: { info: vi.fn(), success: vi.fn(), warning: (title: string) => void warnings.push(title), error: vi.fn(), dismiss: vi.fn() },
    server: { placeCall: vi.fn(), getCall: vi.fn(), hangUpCall: vi.fn(), sendDtmf: vi.fn(), saveMediaFigures: vi.fn(async () => undefined) },
    onCallEnded: vi.fn(),
  };
  const watch = new CallFiguresWatch(deps);
  const call: LiveCall = { ...newLiveCall('outbound', { phase: 'active', callId: 'c1', peer: '+14155550100', countryCode: '+1' }), media: link, voiceDelayMs: 29 };
  /** One second passes with `stats` as what the audio reports. */
  const second = async (stats: Partial<CallMediaStats>) => {
    readings.push({ transport: 'webrtc', ...stats });
    tick?.();
    await flush();
  };
  return { watch, deps, call, second, warnings, ticking: () => tick !== null };
}

describe('CallFiguresWatch', () => {
  it('waits for the call to be answered with its audio up, then reads its figures every second', async () => {
    const { watch, call, second, ticking } = setUp();
    watch.follow({ ...call, phase: 'ringing' });
    expect(ticking()).toBe(false);
    watch.follow(call);
    await second({ codec: 'Opus', roundTripMs: 40, jitterMs: 3, lossShare: 0, packetsReceived: 50, micLevel: 0.2 });
    expect(watch.getSnapshot()).toEqual({ transport: 'webrtc', codec: 'Opus', roundTripMs: 40, jitterMs: 3, lossShare: 0, packetsReceived: 50, micLevel: 0.2, voiceDelayMs: 29, quality: 'good' });
    await second({ roundTripMs: 400, packetsReceived: 100 });
    expect(watch.getSnapshot()).toMatchObject({ packetsReceived: 100, quality: 'fair' });
  });

  it('warns once each time the line turns Poor for two readings in a row, not for one bad second', async () => {
    const { watch, call, second, warnings } = setUp();
    watch.follow(call);
    for (const lossShare of [0, 0.1, 0, 0.1, 0.2, 0.3, 0.02, 0.1, 0.2]) await second({ lossShare });
    expect(warnings).toEqual(['Poor call quality', 'Poor call quality']);
  });

  it('counts concealed audio as loss: the websocket path loses nothing, only late packets', async () => {
    const { watch, call, second } = setUp();
    watch.follow(call);
    await second({ transport: 'websocket-opus', lossShare: 0, concealedShare: 0.08 });
    expect(watch.getSnapshot()?.quality).toBe('poor');
  });

  it('keeps the averages and the worst on the call record once the call is over, then stops', async () => {
    const { watch, deps, call, second, ticking } = setUp();
    watch.follow(call);
    await second({ codec: 'Opus', roundTripMs: 40, jitterMs: 2, lossShare: 0, concealedShare: 0 });
    await second({ roundTripMs: 80, jitterMs: 10, lossShare: 0.1, concealedShare: 0.02 });
    watch.follow(null);
    expect(ticking()).toBe(false);
    expect(watch.getSnapshot()).toBeNull();
    expect(deps.server.saveMediaFigures).toHaveBeenCalledWith('c1', {
      readings: 2,
      codec: 'Opus',
      roundTripMs: { average: 60, worst: 80 },
      jitterMs: { average: 6, worst: 10 },
      lossShare: { average: 0.05, worst: 0.1 },
      concealedShare: { average: 0.01, worst: 0.02 },
      voiceDelayMs: { average: 29, worst: 29 },
      quality: 'fair',
      worstQuality: 'poor',
    });
    await flush();
    expect(deps.onCallEnded).toHaveBeenCalledTimes(1);
  });

  it('sends nothing for a call that never had a reading', () => {
    const { watch, deps, call } = setUp();
    watch.follow(call);
    watch.follow(null);
    expect(deps.server.saveMediaFigures).not.toHaveBeenCalled();
  });
});
