import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import type { CallRecord } from '../../../common/api/calls';
import type { Preferences } from '../../../common/api/preferences';
import type { ServerMessage } from '../../../common/realtime';
import { FakeSignalling } from '../../../../tests/support/fake-signalling';
import { renderRoutes } from '../../../../tests/support/render-web';
import { apiError, stubApi, type StubResponder } from '../../../../tests/support/web-fetch';
import { CallProvider } from '../../calls/call-context';
import type * as callMediaModule from '../../calls/call-media';
import type { CallMediaOptions } from '../../calls/call-media';
import { loadPhoneLibrary } from '../../lib/phone-library';
import { RealtimeClientProvider } from '../../lib/realtime';
import { CallSettingsPage } from './call-settings-page';

// The audio path (AudioWorklets, the media websocket) has no jsdom equivalent; its wiring is what is checked here.
const media = vi.hoisted(() => ({ connect: vi.fn(), setMuted: vi.fn(), close: vi.fn() }));
vi.mock('../../calls/call-media', async (importOriginal) => ({
  ...(await importOriginal<typeof callMediaModule>()),
  CallMedia: { connect: media.connect },
}));

// The incoming-call notice names the caller formatted, as it does once the page, shown a moment
// before the call, has fetched the phone library (use-outbound-call.ts).
beforeAll(() => loadPhoneLibrary());

const number = { id: 'n1', phoneNumber: '+14155550123', friendlyName: 'Work', active: true, country: 'US', monthlyCost: '1.00', currency: 'USD', createdAt: '2026-11-01T00:00:00.000Z' };
const preferences: Preferences = { darkMode: false, notifications: false, callHistory: true, dataUsage: false, autoAnswer: false, recordCalls: false };
const incoming: ServerMessage = { type: 'call.incoming', callId: 'c1', from: '+12125550147', to: '+14155550123', at: '2026-11-22T10:00:00.000Z' };
const endedRecord: CallRecord = {
  id: 'c1', direction: 'inbound', from: '+12125550147', to: '+14155550123', state: 'ended', outcome: 'completed', reason: null,
  startedAt: '2026-11-22T10:00:00.000Z', answeredAt: '2026-11-22T10:00:03.000Z', endedAt: '2026-11-22T10:01:08.000Z', durationSec: 65, mediaTransport: 'webrtc', mediaFigures: null,
};

function renderCallSettings({ numbers = [number] as unknown[], prefs = preferences, answers = {} as Record<string, StubResponder> } = {}) {
  const api = stubApi({
    'GET /api/v1/numbers': { status: 200, body: { numbers } },
    'GET /api/v1/preferences': { status: 200, body: prefs },
    'GET /api/v1/voice-settings': { status: 200, body: { settings: { voiceType: 'normal', pitch: 1, speed: 1 }, allowed: { voiceTypes: ['normal'], pitchAndSpeed: false }, tier: 'free' } },
    'GET /api/v1/calls/lines': { status: 200, body: { soundTestNumber: '+14155550100' } },
    'GET /api/v1/voicemail/greeting': { status: 200, body: { custom: false, durationSec: 6, updatedAt: null } },
    ...answers,
  });
  vi.stubGlobal('fetch', api.fetchStub);
  const realtime = new FakeSignalling(act);
  const page = (
    <RealtimeClientProvider client={realtime}>
      <CallProvider>
        <CallSettingsPage />
      </CallProvider>
    </RealtimeClientProvider>
  );
  const view = renderRoutes([{ path: '/call-settings', element: page }, { path: '/contacts', element: <h1>Contacts</h1> }], '/call-settings');
  return { ...view, api, realtime };
}

async function openReceiver() {
  await userEvent.click(screen.getByRole('tab', { name: 'Call Receiver' }));
  return screen.findByRole('region', { name: 'Call Receiver' });
}

async function startReceiving() {
  const panel = await openReceiver();
  await userEvent.click(within(panel).getByRole('button', { name: 'Receive Calls' }));
  return panel;
}

function fakeMicrophone() {
  const track = { stop: vi.fn(), enabled: true };
  const stream = { getTracks: () => [track], getAudioTracks: () => [track] } as unknown as MediaStream;
  const getUserMedia = vi.fn().mockResolvedValue(stream);
  Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: { getUserMedia } });
  return { stream, track, getUserMedia };
}

let play: MockInstance<HTMLMediaElement['play']>;
let pause: MockInstance<HTMLMediaElement['pause']>;

beforeEach(() => {
  // Radix Slider (the Voice Changer tab's pitch and speed) measures its thumb; jsdom has no ResizeObserver.
  vi.stubGlobal('ResizeObserver', class { observe() {} unobserve() {} disconnect() {} });
  play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
  pause = vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined);
  media.connect.mockImplementation(async () => ({ setMuted: media.setMuted, close: media.close }));
});

afterEach(() => {
  // Unmounted while the media stubs are still in place: leaving the page pauses a ringing ringtone.
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  media.connect.mockReset();
  media.setMuted.mockReset();
  media.close.mockReset();
});

describe('Call Settings tabs', () => {
  it('opens on Voice Changer, which says its settings apply to outgoing calls', () => {
    renderCallSettings();
    expect(screen.getByRole('heading', { level: 1, name: 'Call Settings' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Voice Changer' })).toHaveAttribute('aria-selected', 'true');
    const panel = screen.getByRole('tabpanel', { name: 'Voice Changer' });
    expect(within(panel).getByRole('heading', { name: 'Voice Settings' })).toBeInTheDocument();
    expect(within(panel).getByText('These settings apply to all your outgoing calls.')).toBeInTheDocument();
    expect(within(panel).getByRole('region', { name: 'Voice Accent Changer' })).toBeInTheDocument();
    expect(within(panel).getByRole('region', { name: 'How it works' })).toBeInTheDocument();
  });
});

describe('Call Receiver tab', () => {
  it('shows a spinner while the numbers load', async () => {
    renderCallSettings({ answers: { 'GET /api/v1/numbers': () => new Promise(() => {}) } });
    await userEvent.click(screen.getByRole('tab', { name: 'Call Receiver' }));
    expect(screen.getByRole('status', { name: 'Loading your phone numbers' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Receive Calls' })).not.toBeInTheDocument();
  });

  it('says when the numbers could not be loaded', async () => {
    renderCallSettings({ answers: { 'GET /api/v1/numbers': apiError(500, 'internal', 'Something went wrong on our side. Please try again.') } });
    await userEvent.click(screen.getByRole('tab', { name: 'Call Receiver' }));
    expect(await screen.findByText('Failed to load your phone numbers')).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('asks for a number first, and refuses to listen without one', async () => {
    const { realtime, router } = renderCallSettings({ numbers: [] });
    const panel = await openReceiver();
    expect(screen.getByRole('heading', { name: 'Receive Calls' })).toBeInTheDocument();
    expect(screen.getByText('Keep this tab open to receive incoming calls on your phone numbers.')).toBeInTheDocument();
    expect(screen.getByText('No Phone Numbers')).toBeInTheDocument();
    await userEvent.click(within(panel).getByRole('button', { name: 'Receive Calls' }));
    expect(await screen.findByText('No phone numbers available')).toBeInTheDocument();
    expect(screen.getByText('You need to add a phone number to receive calls')).toBeInTheDocument();
    expect(within(panel).getByText('Call receiving is turned off')).toBeInTheDocument();
    expect(realtime.sent).toEqual([]);
    await userEvent.click(screen.getByRole('link', { name: 'Contacts page' }));
    expect(router.state.location.pathname).toBe('/contacts');
  });

  it('listens on Receive Calls and stops on Stop Receiving', async () => {
    const { realtime } = renderCallSettings();
    const panel = await openReceiver();
    expect(within(panel).getByText('Call receiving is turned off')).toBeInTheDocument();
    expect(screen.queryByText('No Phone Numbers')).not.toBeInTheDocument();
    await userEvent.click(within(panel).getByRole('button', { name: 'Receive Calls' }));
    expect(realtime.sent).toEqual([{ type: 'receiver.start' }]);
    expect(within(panel).getByText('Ready to receive incoming calls')).toBeInTheDocument();
    expect(await screen.findByText('Ready to receive calls')).toBeInTheDocument();

    await userEvent.click(within(panel).getByRole('button', { name: 'Stop Receiving' }));
    expect(realtime.sent).toEqual([{ type: 'receiver.start' }, { type: 'receiver.stop' }]);
    expect(within(panel).getByText('Call receiving is turned off')).toBeInTheDocument();
    expect(await screen.findByText('Call receiving stopped')).toBeInTheDocument();
  });

  it('stops listening when the page is left', async () => {
    const { realtime, router } = renderCallSettings();
    await startReceiving();
    await act(() => router.navigate('/contacts'));
    expect(await screen.findByRole('heading', { name: 'Contacts' })).toBeInTheDocument();
    expect(realtime.types()).toEqual(['receiver.start', 'receiver.stop']);
  });

  it('sends nothing on leaving when it was not listening', () => {
    const { realtime, unmount } = renderCallSettings();
    unmount();
    expect(realtime.sent).toEqual([]);
  });
});

describe('an incoming call', () => {
  it('rings with the caller’s number, the looping ringtone and a notice, and brings the tab forward', async () => {
    const { realtime } = renderCallSettings();
    await startReceiving();
    await userEvent.click(screen.getByRole('tab', { name: 'Voice Changer' }));
    realtime.deliver(incoming);

    expect(screen.getByRole('tab', { name: 'Call Receiver' })).toHaveAttribute('aria-selected', 'true');
    const card = screen.getByRole('region', { name: 'Incoming Call' });
    expect(within(card).getByText('+1 (212) 555-0147')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Answer' })).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Reject' })).toBeInTheDocument();
    expect(await screen.findByText('Incoming call')).toBeInTheDocument();
    expect(screen.getByText('From +1 (212) 555-0147')).toBeInTheDocument();

    expect(play).toHaveBeenCalledTimes(1);
    const ringtone = play.mock.contexts[0] as HTMLAudioElement;
    expect(ringtone.src).toMatch(/\/sounds\/ringtone\.wav$/);
    expect(ringtone.loop).toBe(true);
  });

  it('only logs a ringtone the browser will not play', async () => {
    play.mockRejectedValue(Object.assign(new Error('play() needs a gesture'), { name: 'NotAllowedError' }));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { realtime } = renderCallSettings();
    await startReceiving();
    realtime.deliver(incoming);
    await waitFor(() => expect(warn).toHaveBeenCalledWith('The ringtone could not play:', expect.any(Error)));
    expect(screen.getByRole('region', { name: 'Incoming Call' })).toBeInTheDocument();
  });

  it('is ignored while not listening', async () => {
    const { realtime } = renderCallSettings();
    await openReceiver();
    realtime.deliver(incoming);
    expect(screen.queryByRole('region', { name: 'Incoming Call' })).not.toBeInTheDocument();
  });

  it('is rejected with Reject', async () => {
    const { realtime } = renderCallSettings();
    const panel = await startReceiving();
    realtime.deliver(incoming);
    await userEvent.click(within(panel).getByRole('button', { name: 'Reject' }));
    expect(realtime.sent).toContainEqual({ type: 'call.reject', callId: 'c1' });
    expect(await screen.findByText('Call rejected')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Incoming Call' })).not.toBeInTheDocument();
    expect(pause).toHaveBeenCalled();
    expect(within(panel).getByText('Ready to receive incoming calls')).toBeInTheDocument();
  });

  it('stops ringing when another tab answers', async () => {
    const { realtime } = renderCallSettings();
    await startReceiving();
    realtime.deliver(incoming);
    realtime.deliver({ type: 'call.ended', callId: 'c1', outcome: 'completed', durationSec: 0, reason: 'Answered in another tab' });
    expect(screen.queryByRole('region', { name: 'Incoming Call' })).not.toBeInTheDocument();
    expect(await screen.findByText('Answered in another tab')).toBeInTheDocument();
    expect(pause).toHaveBeenCalled();
    expect(realtime.types()).toEqual(['receiver.start']);
  });

  it('becomes a missed call when the caller gives up', async () => {
    const { realtime } = renderCallSettings();
    await startReceiving();
    realtime.deliver(incoming);
    realtime.deliver({ type: 'call.ended', callId: 'c1', outcome: 'cancelled', durationSec: 0, reason: 'The caller hung up' });
    expect(screen.queryByRole('region', { name: 'Incoming Call' })).not.toBeInTheDocument();
    expect(await screen.findByText('Missed call')).toBeInTheDocument();
  });

  it('is rejected, and listening stops, when the page is left', async () => {
    const { realtime, unmount } = renderCallSettings();
    await startReceiving();
    realtime.deliver(incoming);
    unmount();
    expect(realtime.sent).toEqual([{ type: 'receiver.start' }, { type: 'call.reject', callId: 'c1' }, { type: 'receiver.stop' }]);
  });

  it('is answered by Auto-Answer after about 3 seconds', async () => {
    fakeMicrophone();
    const { realtime } = renderCallSettings({ prefs: { ...preferences, autoAnswer: true } });
    await startReceiving();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    realtime.deliver(incoming);
    await act(() => vi.advanceTimersByTimeAsync(2_900));
    expect(realtime.types()).not.toContain('call.answer');
    expect(screen.getByRole('region', { name: 'Incoming Call' })).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(100));
    vi.useRealTimers();
    await waitFor(() => expect(realtime.sent).toContainEqual({ type: 'call.answer', callId: 'c1' }));
    expect(screen.getByRole('region', { name: 'On Call' })).toHaveTextContent('Connecting...');
  });

  it('is rejected, with a clear notice, when the microphone is refused', async () => {
    const getUserMedia = vi.fn().mockRejectedValue(Object.assign(new Error('denied'), { name: 'NotAllowedError' }));
    Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: { getUserMedia } });
    const { realtime } = renderCallSettings();
    const panel = await startReceiving();
    realtime.deliver(incoming);
    await userEvent.click(within(panel).getByRole('button', { name: 'Answer' }));
    expect(await screen.findByText('Microphone access was refused. Allow the microphone for this site and try again.')).toBeInTheDocument();
    expect(screen.getByText('Call rejected')).toBeInTheDocument();
    expect(realtime.sent).toContainEqual({ type: 'call.reject', callId: 'c1' });
    expect(realtime.types()).not.toContain('call.answer');
    expect(screen.queryByRole('region', { name: 'On Call' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Incoming Call' })).not.toBeInTheDocument();
    expect(media.connect).not.toHaveBeenCalled();
  });

  it('shows a browser notification when the tab is hidden and notifications are on', async () => {
    const shown: { title: string; options: NotificationOptions; close: () => void }[] = [];
    const requestPermission = vi.fn().mockResolvedValue('granted');
    class FakeNotification {
      static permission: NotificationPermission = 'default';
      static requestPermission = requestPermission;
      onclick: (() => void) | null = null;
      close = vi.fn();
      constructor(title: string, options: NotificationOptions) {
        shown.push({ title, options, close: this.close });
      }
    }
    vi.stubGlobal('Notification', FakeNotification);
    const hidden = vi.spyOn(document, 'hidden', 'get').mockReturnValue(true);
    const { realtime } = renderCallSettings({ prefs: { ...preferences, notifications: true } });
    await startReceiving();
    expect(requestPermission).toHaveBeenCalledTimes(1);
    FakeNotification.permission = 'granted';
    realtime.deliver(incoming);
    expect(shown).toEqual([expect.objectContaining({ title: 'Incoming call', options: expect.objectContaining({ body: 'From +1 (212) 555-0147' }) })]);
    realtime.deliver({ type: 'call.ended', callId: 'c1', outcome: 'cancelled', durationSec: 0 });
    expect(shown[0]!.close).toHaveBeenCalled();
    hidden.mockRestore();
  });
});

describe('an answered call', () => {
  async function answerCall(prefs = preferences) {
    const microphone = fakeMicrophone();
    const view = renderCallSettings({ prefs, answers: { 'POST /api/v1/calls/c1/hangup': { status: 200, body: endedRecord } } });
    const panel = await startReceiving();
    view.realtime.deliver(incoming);
    await userEvent.click(within(panel).getByRole('button', { name: 'Answer' }));
    await waitFor(() => expect(view.realtime.sent).toContainEqual({ type: 'call.answer', callId: 'c1' }));
    expect(play).toHaveBeenCalledTimes(1);
    expect(pause).toHaveBeenCalled();
    return { ...view, panel, microphone };
  }

  it('connects its audio on the call’s media socket at 16 kHz, counts its duration, mutes and ends', async () => {
    const { realtime, panel, api, microphone } = await answerCall();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    realtime.deliver({ type: 'call.state', callId: 'c1', state: 'answered', answeredAt: new Date().toISOString() });
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(media.connect).toHaveBeenCalledTimes(1);
    const options = media.connect.mock.calls[0]![0] as CallMediaOptions;
    expect(options).toMatchObject({ mediaPath: '/api/v1/calls/c1/media', sampleRate: 16_000, stream: microphone.stream });

    const onCall = within(panel).getByRole('region', { name: 'On Call' });
    expect(onCall).toHaveTextContent('+1 (212) 555-0147');
    expect(onCall).toHaveTextContent('0:00');
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(onCall).toHaveTextContent('0:05');
    vi.useRealTimers();

    await userEvent.click(within(onCall).getByRole('button', { name: 'Mute' }));
    expect(realtime.sent).toContainEqual({ type: 'call.mute', callId: 'c1', muted: true });
    expect(media.setMuted).toHaveBeenLastCalledWith(true);
    expect(await screen.findByText('Microphone muted')).toBeInTheDocument();
    await userEvent.click(within(onCall).getByRole('button', { name: 'Unmute' }));
    expect(realtime.sent).toContainEqual({ type: 'call.mute', callId: 'c1', muted: false });
    expect(await screen.findByText('Microphone unmuted')).toBeInTheDocument();

    await userEvent.click(within(onCall).getByRole('button', { name: 'End Call' }));
    expect(await screen.findByText('Call ended')).toBeInTheDocument();
    expect(screen.getByText('Duration: 1:05')).toBeInTheDocument();
    expect(api.sent('POST', '/api/v1/calls/c1/hangup')).toHaveLength(1);
    expect(media.close).toHaveBeenCalled();
    expect(screen.queryByRole('region', { name: 'On Call' })).not.toBeInTheDocument();
    expect(within(panel).getByText('Ready to receive incoming calls')).toBeInTheDocument();
  });

  it('uses 8 kHz with Low Data Mode', async () => {
    const { realtime } = await answerCall({ ...preferences, dataUsage: true });
    realtime.deliver({ type: 'call.state', callId: 'c1', state: 'answered', answeredAt: new Date().toISOString() });
    await waitFor(() => expect(media.connect).toHaveBeenCalledWith(expect.objectContaining({ sampleRate: 8_000 })));
  });

  it('ends when the caller hangs up, with the duration', async () => {
    const { realtime } = await answerCall();
    realtime.deliver({ type: 'call.state', callId: 'c1', state: 'answered', answeredAt: new Date().toISOString() });
    await waitFor(() => expect(media.connect).toHaveBeenCalled());
    realtime.deliver({ type: 'call.ended', callId: 'c1', outcome: 'completed', durationSec: 42 });
    expect(await screen.findByText('Duration: 0:42')).toBeInTheDocument();
    expect(media.close).toHaveBeenCalled();
    expect(screen.queryByRole('region', { name: 'On Call' })).not.toBeInTheDocument();
  });

  it('says so when the server refuses the answer, and holds nothing open', async () => {
    const { realtime, microphone } = await answerCall();
    // An error about another call (a mute sent for a call that just ended) leaves this one alone.
    realtime.deliver({ type: 'error', code: 'failed', message: 'No such call in progress', callId: 'another-call' });
    realtime.deliver({ type: 'error', code: 'failed', message: 'This call is no longer ringing', callId: 'c1' });
    expect(await screen.findByText('This call is no longer ringing')).toBeInTheDocument();
    expect(screen.queryByText('No such call in progress')).not.toBeInTheDocument();
    expect(microphone.track.stop).toHaveBeenCalled();
    expect(screen.queryByRole('region', { name: 'On Call' })).not.toBeInTheDocument();
    expect(realtime.types()).not.toContain('call.hangup');
  });

  it('is hung up, and listening stops, when the page is left', async () => {
    const { realtime, unmount } = await answerCall();
    realtime.deliver({ type: 'call.state', callId: 'c1', state: 'answered', answeredAt: new Date().toISOString() });
    await waitFor(() => expect(media.connect).toHaveBeenCalled());
    unmount();
    expect(realtime.sent.slice(-2)).toEqual([{ type: 'call.hangup', callId: 'c1' }, { type: 'receiver.stop' }]);
    expect(media.close).toHaveBeenCalled();
  });
});
