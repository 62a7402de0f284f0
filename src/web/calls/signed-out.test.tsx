import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CallRecord } from '../../common/api/calls';
import { renderRoutes } from '../../../tests/support/render-web';
import { stubApi } from '../../../tests/support/web-fetch';
import { NavBar } from '../components/nav-bar';
import { RequireSession } from '../components/require-session';
import { DialerPage } from '../features/dialer/dialer-page';
import { RealtimeProvider, SIGNED_OUT_CLOSE_CODE } from '../lib/realtime';
import { CallProvider } from './call-context';
import type * as callMediaModule from './call-media';
import type { CallMediaOptions } from './call-media';

// The audio path (AudioWorklets, the media websocket) has no jsdom equivalent; its wiring is what is checked here.
const media = vi.hoisted(() => ({ connect: vi.fn(), setMuted: vi.fn(), close: vi.fn() }));
vi.mock('./call-media', async (importOriginal) => ({
  ...(await importOriginal<typeof callMediaModule>()),
  CallMedia: { connect: media.connect },
}));

/** The signalling socket the app opens, driven by the test as the server would. */
class FakeSocket {
  static readonly OPEN = 1;
  static instances: FakeSocket[] = [];
  readyState = 0;
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;

  constructor(readonly url: string) {
    FakeSocket.instances.push(this);
  }

  send() {}

  close() {
    this.readyState = 3;
  }

  open() {
    act(() => {
      this.readyState = FakeSocket.OPEN;
      this.onopen?.();
    });
  }

  closedByServer(code: number) {
    act(() => {
      this.readyState = 3;
      this.onclose?.({ code });
    });
  }
}

const user = { id: 'u1', email: 'ada@example.com', fullName: 'Ada Lovelace' };
const number = { id: 'n1', phoneNumber: '+14155550123', friendlyName: 'Work', active: true, country: 'US', monthlyCost: '1.00', currency: 'USD', createdAt: '2026-11-01T00:00:00.000Z' };
const answered: CallRecord = {
  id: 'c1', direction: 'outbound', from: '+14155550123', to: '+14155550100', state: 'answered', outcome: null, reason: null,
  startedAt: '2026-11-22T10:00:00.000Z', answeredAt: '2026-11-22T10:00:00.000Z', endedAt: null, durationSec: null, mediaTransport: null, mediaFigures: null,
};

function renderSignedInDialer() {
  const api = stubApi({
    '/api/v1/session': { status: 200, body: { user } },
    '/api/v1/numbers': { status: 200, body: { numbers: [number] } },
    '/api/v1/calls/lines': { status: 200, body: { soundTestNumber: '+14155550100' } },
    'GET /api/v1/calls': { status: 200, body: { calls: [] } },
    'POST /api/v1/calls': { status: 201, body: { call: answered, mediaPath: '/api/v1/calls/c1/media', sampleRate: 16_000 } },
    '/api/v1/calls/c1': { status: 401, body: { error: { code: 'unauthenticated', message: 'You need to sign in first' } } },
  });
  vi.stubGlobal('fetch', api.fetchStub);
  // As the signed-in frame (AppLayout) holds them: the realtime socket around the call engine.
  const dialer = (
    <RealtimeProvider>
      <CallProvider>
        <DialerPage />
      </CallProvider>
    </RealtimeProvider>
  );
  const view = renderRoutes([{ element: <RequireSession />, children: [{ path: '/dialer', element: dialer }] }, { path: '/', element: <h1>Welcome</h1> }], '/dialer');
  return { ...view, api };
}

beforeEach(() => {
  FakeSocket.instances = [];
  vi.stubGlobal('WebSocket', FakeSocket);
  const track = { stop: vi.fn(), enabled: true };
  const stream = { getTracks: () => [track], getAudioTracks: () => [track] } as unknown as MediaStream;
  Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: { getUserMedia: vi.fn().mockResolvedValue(stream) } });
  media.connect.mockImplementation(async () => ({ setMuted: media.setMuted, close: media.close }));
});

afterEach(() => {
  vi.unstubAllGlobals();
  media.connect.mockReset();
  window.localStorage.clear();
});

describe('a session signed out elsewhere', () => {
  it('ends the call in progress, shows the person signed out and sends them to the signed-out home page', async () => {
    const { api, router } = renderSignedInDialer();
    await userEvent.click(await screen.findByRole('button', { name: /^Call the sound-test line/ }));
    expect(await screen.findByRole('region', { name: 'Active call' })).toBeInTheDocument();
    const { onDrop } = media.connect.mock.calls[0]![0] as CallMediaOptions;
    const signalling = FakeSocket.instances[0]!;
    signalling.open();
    const asked = api.sent('GET', '/api/v1/calls/c1').length;

    // What the server does when the session ends: the call's media socket and the tab's socket close with 4401.
    act(() => onDrop(true));
    signalling.closedByServer(SIGNED_OUT_CLOSE_CODE);

    expect(await screen.findByText('Call ended')).toBeInTheDocument();
    expect(await screen.findByText('Signed out')).toBeInTheDocument();
    expect(screen.queryByText('Call failed')).not.toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(screen.queryByRole('region', { name: 'Active call' })).not.toBeInTheDocument();
    // Nothing left to ask a server that no longer knows the session (RealtimeClient's own test shows it does not reconnect).
    expect(api.sent('GET', '/api/v1/calls/c1')).toHaveLength(asked);
  }, 15_000);

  it('is noticed when the signalling socket cannot reconnect because the server no longer knows the session', async () => {
    const { router } = renderSignedInDialer();
    await screen.findByRole('button', { name: /^Call the sound-test line/ });
    // From here on the server no longer knows the session, and the tab was away when it ended:
    // its connection is refused, which a browser reports as 1006.
    const forgotten = stubApi({ '/api/v1/session': { status: 401, body: { error: { code: 'unauthenticated', message: 'You need to sign in first' } } } });
    vi.stubGlobal('fetch', forgotten.fetchStub);
    FakeSocket.instances[0]!.closedByServer(1006);

    expect(await screen.findByText('Signed out')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(forgotten.sent('GET', '/api/v1/session')).toHaveLength(1);
  }, 15_000);

  it.each([
    ['after the answer to its sign-out', 'answer first'],
    ['before the answer to its sign-out', 'close first'],
  ] as const)("shows only its own notice in the tab that signs out, its socket closed %s", async (_when, order) => {
    let answer: (value: { status: number; body: unknown }) => void = () => {};
    const api = stubApi({
      '/api/v1/session': { status: 200, body: { user } },
      'POST /api/v1/auth/sign-out': () => new Promise((resolve) => (answer = resolve)),
    });
    vi.stubGlobal('fetch', api.fetchStub);
    const { router } = renderRoutes([{ element: <RequireSession />, children: [{ path: '/dialer', element: <RealtimeProvider><NavBar /></RealtimeProvider> }] }, { path: '/', element: <h1>Welcome</h1> }], '/dialer');
    await userEvent.click(await screen.findByRole('button', { name: 'Sign out' }));
    const signalling = FakeSocket.instances[0]!;
    signalling.open();

    if (order === 'close first') signalling.closedByServer(SIGNED_OUT_CLOSE_CODE);
    await act(async () => {
      answer({ status: 200, body: { ok: true } });
      // The close may come once the answer is read, before the page has stopped its socket.
      if (order === 'answer first') {
        await new Promise((resolve) => setTimeout(resolve, 0));
        signalling.onclose?.({ code: SIGNED_OUT_CLOSE_CODE });
      }
    });
    expect(await screen.findByText('Logged out')).toBeInTheDocument();

    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await screen.findByText('Logged out')).toBeInTheDocument();
    expect(screen.queryByText('Signed out')).not.toBeInTheDocument();
  }, 15_000);
});
