import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RealtimeClient } from './realtime';

/** Enough of a WebSocket for the client: the test opens and drops it. */
class FakeSocket {
  static readonly OPEN = 1;
  static instances: FakeSocket[] = [];
  readyState = 0;
  readonly sent: unknown[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;

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

  drop() {
    this.readyState = 3;
    this.onclose?.();
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
});
