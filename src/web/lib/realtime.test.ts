import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeBrowserWebSocket } from '../../../tests/support/fake-browser-websocket';
import { RealtimeClient, SIGNED_OUT_CLOSE_CODE } from './realtime';

const latest = () => FakeBrowserWebSocket.latest();

beforeEach(() => {
  FakeBrowserWebSocket.instances = [];
  vi.stubGlobal('WebSocket', FakeBrowserWebSocket);
  vi.useFakeTimers();
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('RealtimeClient', () => {
  it('resumes listening after a reconnection, and not once listening has stopped', () => {
    const client = new RealtimeClient('ws://localhost/api/v1/realtime');
    client.start();
    latest().open();
    expect(client.send({ type: 'receiver.start' })).toBe(true);
    expect(latest().sent).toEqual([{ type: 'receiver.start' }]);

    latest().drop();
    vi.advanceTimersByTime(1_000);
    expect(FakeBrowserWebSocket.instances).toHaveLength(2);
    latest().open();
    expect(latest().sent).toEqual([{ type: 'receiver.start' }]);

    client.send({ type: 'receiver.stop' });
    latest().drop();
    vi.advanceTimersByTime(2_000);
    latest().open();
    expect(latest().sent).toEqual([]);
    client.stop();
  });

  it('starts listening once connected when asked while the socket is away', () => {
    const client = new RealtimeClient('ws://localhost/api/v1/realtime');
    const connected = vi.fn();
    client.onConnect(connected);
    client.start();
    expect(client.send({ type: 'receiver.start' })).toBe(false);
    latest().open();
    expect(latest().sent).toEqual([{ type: 'receiver.start' }]);
    expect(connected).toHaveBeenCalledTimes(1);
    client.stop();
  });

  it('says whether a connection is the first, or one after the socket was away (multi-device sync reloads then)', () => {
    const client = new RealtimeClient('ws://localhost/api/v1/realtime');
    const connected = vi.fn();
    client.onConnect(connected);
    client.start();
    latest().open();
    latest().drop();
    vi.advanceTimersByTime(1_000);
    latest().open();
    expect(connected.mock.calls).toEqual([[false], [true]]);
    client.stop();
  });

  it('stops for good when the server closes the socket because the session ended, and says so once', () => {
    const signedOut = vi.fn();
    const client = new RealtimeClient('ws://localhost/api/v1/realtime', { onSignedOut: signedOut });
    client.start();
    latest().open();
    latest().drop(SIGNED_OUT_CLOSE_CODE);
    vi.advanceTimersByTime(60_000);
    expect(FakeBrowserWebSocket.instances).toHaveLength(1);
    expect(signedOut).toHaveBeenCalledTimes(1);
    expect(client.send({ type: 'receiver.start' })).toBe(false);
  });

  it('reports a connection refused before it opened, and keeps trying', () => {
    const refused = vi.fn();
    const signedOut = vi.fn();
    const client = new RealtimeClient('ws://localhost/api/v1/realtime', { onRefused: refused, onSignedOut: signedOut });
    client.start();
    latest().drop();
    expect(refused).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1_000);
    expect(FakeBrowserWebSocket.instances).toHaveLength(2);
    latest().open();
    // A connection that opened and then dropped is the network, not a refusal.
    latest().drop();
    expect(refused).toHaveBeenCalledTimes(1);
    expect(signedOut).not.toHaveBeenCalled();
    client.stop();
  });
});

describe('RealtimeClient when its server drains', () => {
  it('closes the socket and reconnects within a second, resuming listening, and hands the message to nobody', () => {
    const client = new RealtimeClient('ws://localhost/api/v1/realtime');
    const heard = vi.fn();
    client.subscribe(heard);
    client.start();
    latest().open();
    client.send({ type: 'receiver.start' });
    const draining = latest();

    draining.receive({ type: 'server.draining' });
    expect(draining.readyState, 'closed by the client').toBe(3);
    expect(heard).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1_000);
    expect(FakeBrowserWebSocket.instances).toHaveLength(2);
    expect(latest().url).toBe('ws://localhost/api/v1/realtime');
    latest().open();
    expect(latest().sent).toEqual([{ type: 'receiver.start' }]);
    // What the old socket still delivers, and its close arriving late, move the new one nowhere.
    draining.receive({ type: 'server.draining' });
    draining.drop(1000);
    vi.advanceTimersByTime(60_000);
    expect(FakeBrowserWebSocket.instances).toHaveLength(2);
    client.stop();
  });

  it('keeps the socket while a call holds it, and reconnects once the call lets go', () => {
    const client = new RealtimeClient('ws://localhost/api/v1/realtime');
    client.start();
    latest().open();
    const release = client.holdForCall();
    latest().receive({ type: 'server.draining' });
    vi.advanceTimersByTime(60_000);
    expect(FakeBrowserWebSocket.instances).toHaveLength(1);
    expect(client.send({ type: 'call.hangup', callId: 'c1' })).toBe(true);

    release();
    release();
    vi.advanceTimersByTime(1_000);
    expect(FakeBrowserWebSocket.instances).toHaveLength(2);
    client.stop();
  });

  it('backs off when the reconnection reaches a draining server again (it is the only one)', () => {
    const client = new RealtimeClient('ws://localhost/api/v1/realtime');
    client.start();
    latest().open();
    client.send({ type: 'receiver.start' });
    latest().receive({ type: 'receiver.state', listening: true });
    const reconnectAfter = (ms: number) => {
      latest().receive({ type: 'server.draining' });
      const count = FakeBrowserWebSocket.instances.length;
      vi.advanceTimersByTime(ms - 1);
      expect(FakeBrowserWebSocket.instances).toHaveLength(count);
      vi.advanceTimersByTime(1);
      expect(FakeBrowserWebSocket.instances).toHaveLength(count + 1);
      latest().open();
    };
    // The first reconnection comes at a random moment within a second: here, half way.
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    reconnectAfter(500);
    reconnectAfter(2_000);
    reconnectAfter(5_000);
    reconnectAfter(10_000);
    reconnectAfter(10_000);
    // A server that lets the tab listen is not draining: its own drain later is a new one, quick again.
    latest().receive({ type: 'receiver.state', listening: true });
    reconnectAfter(500);
    client.stop();
  });

  it('moves quickly twice in a rolling upgrade: listening on the second server, drained by it seconds later', () => {
    const client = new RealtimeClient('ws://localhost/api/v1/realtime');
    client.start();
    latest().open();
    client.send({ type: 'receiver.start' });
    latest().receive({ type: 'receiver.state', listening: true });
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    for (const _server of ['the first', 'the second']) {
      latest().receive({ type: 'server.draining' });
      const count = FakeBrowserWebSocket.instances.length;
      vi.advanceTimersByTime(500);
      expect(FakeBrowserWebSocket.instances).toHaveLength(count + 1);
      latest().open();
      latest().receive({ type: 'receiver.state', listening: true });
      vi.advanceTimersByTime(5_000);
    }
    client.stop();
  });
});
