import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CallRecord } from '../../common/api/calls';
import { defaultPreferences } from '../../common/api/preferences';
import { FakeBrowserWebSocket } from '../../../tests/support/fake-browser-websocket';
import { RealtimeClient } from '../lib/realtime';
import type { CallMediaLink } from './call-media-link';
import { CallSession } from './call-session';
import type { CallSessionDeps, NoticeOptions } from './call-session-ports';
import type { CallSnapshot } from './call-snapshot';

/**
 * A listening tab whose server drains (docs/deploy.md#draining), as the person sees it: the real
 * signalling client over a stand-in for the browser's WebSocket, and the Call Receiver's session.
 */
function setUp() {
  const track = { stop: vi.fn() };
  const stream = { getTracks: () => [track] } as unknown as MediaStream;
  const link = { transport: 'webrtc', setMuted: vi.fn(), stats: vi.fn(), close: vi.fn() } satisfies CallMediaLink;
  const notices: string[] = [];
  const notice = (title: string, options?: NoticeOptions) => void notices.push(options?.description ? `${title}: ${options.description}` : title);
  const ended: CallRecord = {
    id: 'c9', direction: 'inbound', from: '+12125550147', to: '+14155550123', state: 'ended', outcome: 'completed', reason: null,
    startedAt: '2026-11-22T10:00:00.000Z', answeredAt: '2026-11-22T10:00:01.000Z', endedAt: '2026-11-22T10:01:00.000Z', durationSec: 59, mediaTransport: 'webrtc', mediaFigures: null,
  };
  const deps: CallSessionDeps = {
    server: { placeCall: vi.fn(), getCall: vi.fn(async () => ended), hangUpCall: vi.fn(async () => ended), sendDtmf: vi.fn(), saveMediaFigures: vi.fn() },
    media: { openMicrophone: vi.fn(async () => stream), connect: vi.fn(async () => link) },
    clock: {
      now: () => Date.now(),
      after: (ms, run) => {
        const timer = setTimeout(run, ms);
        return () => clearTimeout(timer);
      },
      every: (ms, run) => {
        const timer = setInterval(run, ms);
        return () => clearInterval(timer);
      },
    },
    notices: { info: notice, success: notice, warning: notice, error: notice, dismiss: vi.fn() },
    alerts: { askPermission: vi.fn(), notify: vi.fn(() => null) },
    preferences: () => defaultPreferences,
    onCallEnded: vi.fn(),
    openPlans: vi.fn(),
  };
  const client = new RealtimeClient('ws://voxline.example/api/v1/realtime');
  client.start();
  FakeBrowserWebSocket.latest().open();
  const session = new CallSession(deps);
  session.attach(client);
  session.startReceiving();
  // Every snapshot the page would render from here on.
  const shown: CallSnapshot[] = [];
  session.subscribe(() => shown.push(session.getSnapshot()));
  return { session, notices, shown };
}

const flush = () => vi.advanceTimersByTimeAsync(0);
const incoming = { type: 'call.incoming', callId: 'c9', from: '+12125550147', to: '+14155550123', at: '2026-11-22T10:00:00.000Z' };

beforeEach(() => {
  FakeBrowserWebSocket.instances = [];
  vi.stubGlobal('WebSocket', FakeBrowserWebSocket);
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('a listening tab whose server drains', () => {
  it('moves to another server and listens there, with nothing shown: no "not listening", no notice', () => {
    const { session, notices, shown } = setUp();
    const draining = FakeBrowserWebSocket.latest();
    expect(draining.sent).toEqual([{ type: 'receiver.start' }]);
    expect(notices).toEqual(['Ready to receive calls']);

    draining.receive({ type: 'server.draining' });
    vi.advanceTimersByTime(1_000);
    const next = FakeBrowserWebSocket.latest();
    expect(next).not.toBe(draining);
    next.open();
    expect(next.sent).toEqual([{ type: 'receiver.start' }]);
    expect(shown).toEqual([]);
    expect(session.getSnapshot()).toMatchObject({ listening: true, phase: 'idle' });
    expect(notices).toEqual(['Ready to receive calls']);

    // Calls ring it on the new server.
    next.receive(incoming);
    expect(session.getSnapshot()).toMatchObject({ listening: true, phase: 'ringing', callId: 'c9' });
  });

  it('keeps the socket of a call in progress on the draining server until the call ends, then moves', async () => {
    const { session, notices } = setUp();
    const draining = FakeBrowserWebSocket.latest();
    draining.receive(incoming);
    await session.answer();
    expect(draining.sent).toContainEqual({ type: 'call.answer', callId: 'c9' });
    draining.receive({ type: 'call.state', callId: 'c9', state: 'answered', answeredAt: new Date().toISOString() });
    await flush();
    expect(session.getSnapshot().phase).toBe('active');

    draining.receive({ type: 'server.draining' });
    vi.advanceTimersByTime(60_000);
    expect(FakeBrowserWebSocket.instances).toHaveLength(1);
    expect(draining.readyState).toBe(FakeBrowserWebSocket.OPEN);
    session.toggleMute();
    expect(draining.sent).toContainEqual({ type: 'call.mute', callId: 'c9', muted: true });

    draining.receive({ type: 'call.ended', callId: 'c9', outcome: 'completed', durationSec: 60 });
    vi.advanceTimersByTime(1_000);
    const next = FakeBrowserWebSocket.latest();
    expect(next).not.toBe(draining);
    next.open();
    expect(next.sent).toEqual([{ type: 'receiver.start' }]);
    expect(session.getSnapshot()).toMatchObject({ listening: true, phase: 'idle' });
    expect(notices.at(-1)).toBe('Call ended: Duration: 1:00');
  });
});
