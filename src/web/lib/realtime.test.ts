import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RealtimeClient, SIGNED_OUT_CLOSE_CODE } from './realtime';

/** Enough of a WebSocket for the client: the test opens and drops it. */
class FakeSocket {
  static readonly OPEN = 1;
  static instances: FakeSocket[] = [];
  readyState = 0;
  readonly sent: unknown[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;

  constructor(readonly url: string) {
    FakeSocket.instances.push(this);
  }

  send(data: string) {
    this.sent.push(JSON.parse(data));
  }

  close() {
    this.readyState = 3;
  }

  open() {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.();
  }

  /** The connection goes away: 1006 when the network drops or an upgrade is refused, or the server's close code. */
  drop(code = 1006) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
}

const latest = () => FakeSocket.instances.at(-1)!;

beforeEach(() => {
  FakeSocket.instances = [];
  vi.stubGlobal('WebSocket', FakeSocket);
  vi.useFakeTimers();
});

afterEach(() => {
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
    expect(FakeSocket.instances).toHaveLength(2);
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

  it('stops for good when the server closes the socket because the session ended, and says so once', () => {
    const signedOut = vi.fn();
    const client = new RealtimeClient('ws://localhost/api/v1/realtime', { onSignedOut: signedOut });
    client.start();
    latest().open();
    latest().drop(SIGNED_OUT_CLOSE_CODE);
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.instances).toHaveLength(1);
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
    expect(FakeSocket.instances).toHaveLength(2);
    latest().open();
    // A connection that opened and then dropped is the network, not a refusal.
    latest().drop();
    expect(refused).toHaveBeenCalledTimes(1);
    expect(signedOut).not.toHaveBeenCalled();
    client.stop();
  });
});
