import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { VoiceSettingsAnswer } from '../../../../common/api/voice-settings';
import { plans, type Tier } from '../../../../common/plans';
import type { VoiceSettings } from '../../../../common/voice';
import { renderRoutes } from '../../../../../tests/support/render-web';
import { apiError, stubApi, type StubResponder } from '../../../../../tests/support/web-fetch';
import type { ActiveCall, StartCall } from '../../../calls/use-outbound-call';
import { SAVE_DELAY_MS } from '../hooks/use-voice-settings';
import type * as recordMicrophoneModule from '../preview/record-microphone';
import { MAX_PREVIEW_SECONDS } from '../preview/record-microphone';
import { VoiceChangerTab } from './voice-changer-tab';

// The call itself is the outbound-call hook's to test; here, what the tab asks of it.
const calls = vi.hoisted(() => ({ start: vi.fn<(request: StartCall) => Promise<void>>(), phase: 'idle' as ActiveCall['phase'] }));
vi.mock('../../../calls/call-context', () => ({
  useCall: () => ({ call: { phase: calls.phase }, start: calls.start }),
}));

// jsdom has neither MediaRecorder nor Web Audio playback: the recorder and the speakers are stood in for.
const audio = vi.hoisted(() => ({ record: vi.fn(), play: vi.fn() }));
vi.mock('../preview/record-microphone', async (importOriginal) => ({
  ...(await importOriginal<typeof recordMicrophoneModule>()),
  recordMicrophone: audio.record,
}));
vi.mock('../preview/play-samples', () => ({ playSamples: audio.play }));

const number = { id: 'n1', phoneNumber: '+14155550123', friendlyName: 'Work', active: true, country: 'US', monthlyCost: '1.00', currency: 'USD', createdAt: '2026-11-01T00:00:00.000Z' };
const normal: VoiceSettings = { voiceType: 'normal', pitch: 1, speed: 1 };

function answerFor(tier: Tier, settings: VoiceSettings = normal): VoiceSettingsAnswer {
  return { settings, allowed: { voiceTypes: [...plans[tier].voiceTypes], pitchAndSpeed: plans[tier].pitchAndSpeed }, tier };
}

/** PUT answers the settings it was given, on the plan of the GET. */
const echoPut = (tier: Tier): StubResponder => ({ body }) => ({ status: 200, body: answerFor(tier, body as VoiceSettings) });

function renderTab({ tier = 'premium' as Tier, settings = normal, numbers = [number] as unknown[], answers = {} as Record<string, StubResponder> } = {}) {
  const api = stubApi({
    'GET /api/v1/voice-settings': { status: 200, body: answerFor(tier, settings) },
    'PUT /api/v1/voice-settings': echoPut(tier),
    'GET /api/v1/numbers': { status: 200, body: { numbers } },
    'GET /api/v1/calls/lines': { status: 200, body: { soundTestNumber: '+14155550100' } },
    ...answers,
  });
  vi.stubGlobal('fetch', api.fetchStub);
  const view = renderRoutes([{ path: '/call-settings', element: <VoiceChangerTab /> }, { path: '/contacts', element: <h1>Contacts</h1> }], '/call-settings');
  return { ...view, api, puts: () => api.sent('PUT', '/api/v1/voice-settings').map((request) => request.body) };
}

const panel = () => screen.getByRole('region', { name: 'Voice Accent Changer' });
const accentSelect = () => within(panel()).getByRole('combobox', { name: 'Accent Type' });
const slider = (name: 'Pitch' | 'Speed') => within(panel()).getByRole('slider', { name });
const storedSettings = () => JSON.parse(window.localStorage.getItem('voiceSettings') ?? 'null') as unknown;

/** Waits until the settings have loaded and the controls are live. */
async function loaded() {
  await waitFor(() => expect(accentSelect()).toBeEnabled());
}

async function chooseAccent(name: string) {
  await userEvent.selectOptions(accentSelect(), within(accentSelect()).getByRole('option', { name }));
}

async function press(name: 'Pitch' | 'Speed', key: string, times = 1) {
  act(() => slider(name).focus());
  for (let i = 0; i < times; i += 1) await userEvent.keyboard(key);
}

beforeEach(() => {
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
  calls.phase = 'idle';
  calls.start.mockResolvedValue(undefined);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

describe('Voice Changer tab', () => {
  it('shows the panel as docs/product.md §2 describes it, with the saved settings', async () => {
    renderTab({ settings: { voiceType: 'european', pitch: 1.5, speed: 0.8 } });
    expect(screen.getByRole('heading', { name: 'Voice Settings' })).toBeInTheDocument();
    expect(screen.getByText('These settings apply to all your outgoing calls.')).toBeInTheDocument();
    await loaded();
    expect(accentSelect()).toHaveDisplayValue('European Accent');
    expect(slider('Pitch')).toHaveAttribute('aria-valuetext', '1.50x');
    expect(slider('Speed')).toHaveAttribute('aria-valuetext', '0.80x');
    expect(within(panel()).getByText('1.50x')).toBeInTheDocument();
    expect(within(panel()).getByText('0.80x')).toBeInTheDocument();
    expect(within(panel()).getByText('Premium plan includes basic accents. Platinum unlocks all accent options.')).toBeInTheDocument();
    expect(within(panel()).getByRole('button', { name: 'Reset Voice Settings' })).toBeEnabled();
    expect(within(screen.getByRole('region', { name: 'How it works' })).getByText(/The person you call hears your voice with these modifications/)).toBeInTheDocument();
    // docs/product.md §3: local storage follows the server (in an effect, after the paint), so the dialer's notice does too.
    await waitFor(() => expect(storedSettings()).toEqual({ voiceType: 'european', pitch: 1.5, speed: 0.8 }));
  });

  it('shows the settings kept in local storage while the server’s load, with the controls off', () => {
    window.localStorage.setItem('voiceSettings', JSON.stringify({ voiceType: 'hispanic', pitch: 1.3, speed: 1 }));
    renderTab({ answers: { 'GET /api/v1/voice-settings': () => new Promise(() => {}) } });
    expect(screen.getByRole('status', { name: 'Loading your voice settings' })).toBeInTheDocument();
    expect(accentSelect()).toHaveDisplayValue('Hispanic Accent');
    expect(accentSelect()).toBeDisabled();
    expect(slider('Pitch')).toHaveAttribute('aria-valuetext', '1.30x');
    expect(slider('Pitch')).toHaveAttribute('aria-disabled', 'true');
    expect(within(panel()).getByRole('button', { name: 'Reset Voice Settings' })).toBeDisabled();
  });

  it('says when the settings could not be loaded, and tries again on request', async () => {
    const { api } = renderTab({
      answers: { 'GET /api/v1/voice-settings': [apiError(503, 'database_unavailable', 'The database is unavailable right now.'), { status: 200, body: answerFor('premium') }] },
    });
    expect(await within(panel()).findByText('Your voice settings could not be loaded')).toBeInTheDocument();
    expect(within(panel()).getByText('The database is unavailable right now.')).toBeInTheDocument();
    expect(accentSelect()).toBeDisabled();
    await userEvent.click(within(panel()).getByRole('button', { name: 'Try again' }));
    await loaded();
    expect(screen.queryByText('Your voice settings could not be loaded')).not.toBeInTheDocument();
    expect(api.sent('GET', '/api/v1/voice-settings')).toHaveLength(2);
  });
});

describe('the accent', () => {
  it('marks the accents outside the plan as locked', async () => {
    renderTab({ tier: 'premium' });
    await loaded();
    const options = [
      'Normal Accent',
      'Caucasian Accent',
      'European Accent',
      'Russian Accent (locked)',
      'Chinese Accent (locked)',
      'Indian Accent (locked)',
      'African Accent',
      'Hispanic Accent',
      'Middle Eastern Accent (locked)',
    ];
    const shown = within(accentSelect()).getAllByRole('option');
    expect(shown).toHaveLength(options.length);
    options.forEach((name, index) => expect(shown[index]).toHaveAccessibleName(name));
  });

  it('changes and saves the accent, telling the user', async () => {
    const { puts } = renderTab({ tier: 'premium' });
    await loaded();
    await chooseAccent('Hispanic Accent');
    expect(accentSelect()).toHaveDisplayValue('Hispanic Accent');
    expect(await screen.findByText('Accent changed')).toBeInTheDocument();
    expect(storedSettings()).toEqual({ voiceType: 'hispanic', pitch: 1, speed: 1 });
    await waitFor(() => expect(puts()).toEqual([{ voiceType: 'hispanic', pitch: 1, speed: 1 }]));
  });

  it('refuses an accent of a higher plan with the plan’s message, keeping the accent', async () => {
    const { puts } = renderTab({ tier: 'premium', settings: { voiceType: 'european', pitch: 1, speed: 1 } });
    await loaded();
    await chooseAccent('Russian Accent (locked)');
    expect(await screen.findByText('This accent needs Platinum')).toBeInTheDocument();
    expect(accentSelect()).toHaveDisplayValue('European Accent');
    expect(screen.queryByText('Accent changed')).not.toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, SAVE_DELAY_MS + 50));
    expect(puts()).toEqual([]);
  });

  it('keeps Free to the normal voice: accents and sliders need Premium', async () => {
    const { puts } = renderTab({ tier: 'free' });
    await loaded();
    expect(slider('Pitch')).toHaveAttribute('aria-disabled', 'true');
    expect(slider('Speed')).toHaveAttribute('aria-disabled', 'true');
    expect(slider('Pitch')).toHaveAccessibleDescription('Voice changer needs Premium: pitch and speed come with the Premium and Platinum plans.');
    await chooseAccent('European Accent (locked)');
    expect(await screen.findByText('Voice changer needs Premium')).toBeInTheDocument();
    expect(accentSelect()).toHaveDisplayValue('Normal Accent');
    expect(puts()).toEqual([]);
  });

  it('gives Platinum every accent', async () => {
    const { puts } = renderTab({ tier: 'platinum' });
    await loaded();
    expect(within(accentSelect()).queryByRole('option', { name: /locked/ })).not.toBeInTheDocument();
    await chooseAccent('Middle Eastern Accent');
    expect(accentSelect()).toHaveDisplayValue('Middle Eastern Accent');
    await waitFor(() => expect(puts()).toEqual([{ voiceType: 'middleEastern', pitch: 1, speed: 1 }]));
  });

  it('says so when saved settings go beyond a plan that has since ended', async () => {
    renderTab({ tier: 'free', settings: { voiceType: 'chinese', pitch: 1, speed: 1 } });
    await loaded();
    expect(within(panel()).getByText('This accent needs Platinum')).toBeInTheDocument();
    expect(within(panel()).getByText(/so your calls use the normal voice/)).toBeInTheDocument();
  });
});

describe('pitch and speed', () => {
  it('moves in steps of 0.1, shows two decimals, and saves once after the last step', async () => {
    const { puts } = renderTab({ tier: 'premium' });
    await loaded();
    await press('Pitch', '{ArrowRight}', 3);
    expect(slider('Pitch')).toHaveAttribute('aria-valuetext', '1.30x');
    expect(within(panel()).getByText('1.30x')).toBeInTheDocument();
    await press('Speed', '{ArrowLeft}', 5);
    expect(slider('Speed')).toHaveAttribute('aria-valuetext', '0.50x');
    await press('Speed', '{ArrowLeft}');
    expect(slider('Speed')).toHaveAttribute('aria-valuetext', '0.50x');
    expect(storedSettings()).toEqual({ voiceType: 'normal', pitch: 1.3, speed: 0.5 });
    await waitFor(() => expect(puts()).toEqual([{ voiceType: 'normal', pitch: 1.3, speed: 0.5 }]));
  });

  it('stops at 2.00x', async () => {
    const { puts } = renderTab({ tier: 'premium', settings: { voiceType: 'normal', pitch: 1.9, speed: 1 } });
    await loaded();
    await press('Pitch', '{ArrowRight}', 2);
    expect(slider('Pitch')).toHaveAttribute('aria-valuetext', '2.00x');
    await waitFor(() => expect(puts()).toEqual([{ voiceType: 'normal', pitch: 2, speed: 1 }]));
  });

  it('rolls a change back with a notice when the save fails', async () => {
    const { puts } = renderTab({
      tier: 'premium',
      settings: { voiceType: 'european', pitch: 1.2, speed: 1 },
      answers: { 'PUT /api/v1/voice-settings': apiError(500, 'internal', 'Something went wrong on our side. Please try again.') },
    });
    await loaded();
    await press('Pitch', '{ArrowRight}');
    expect(slider('Pitch')).toHaveAttribute('aria-valuetext', '1.30x');
    expect(await screen.findByText('Failed to save voice settings')).toBeInTheDocument();
    expect(screen.getByText('Something went wrong on our side. Please try again.')).toBeInTheDocument();
    expect(slider('Pitch')).toHaveAttribute('aria-valuetext', '1.20x');
    expect(storedSettings()).toEqual({ voiceType: 'european', pitch: 1.2, speed: 1 });
    expect(puts()).toHaveLength(1);
  });

  it('saves a change still waiting for its debounce when the tab is left', async () => {
    const { puts, unmount } = renderTab({ tier: 'premium' });
    await loaded();
    await press('Speed', '{ArrowRight}');
    unmount();
    expect(puts()).toEqual([]);
    await waitFor(() => expect(puts()).toEqual([{ voiceType: 'normal', pitch: 1, speed: 1.1 }]));
  });
});

describe('Reset Voice Settings', () => {
  it('brings pitch and speed back to 1 and the accent to normal', async () => {
    const { puts } = renderTab({ tier: 'platinum', settings: { voiceType: 'indian', pitch: 0.7, speed: 1.6 } });
    await loaded();
    await userEvent.click(within(panel()).getByRole('button', { name: 'Reset Voice Settings' }));
    expect(await screen.findByText('Voice reset')).toBeInTheDocument();
    expect(accentSelect()).toHaveDisplayValue('Normal Accent');
    expect(slider('Pitch')).toHaveAttribute('aria-valuetext', '1.00x');
    expect(slider('Speed')).toHaveAttribute('aria-valuetext', '1.00x');
    expect(storedSettings()).toEqual(normal);
    await waitFor(() => expect(puts()).toEqual([normal]));
  });

  it('works on Free too, for settings of an ended plan', async () => {
    const { puts } = renderTab({ tier: 'free', settings: { voiceType: 'european', pitch: 1.4, speed: 1 } });
    await loaded();
    await userEvent.click(within(panel()).getByRole('button', { name: 'Reset Voice Settings' }));
    await waitFor(() => expect(puts()).toEqual([normal]));
    expect(within(panel()).queryByText('Voice changer needs Premium')).not.toBeInTheDocument();
  });
});

describe('the sound-test line', () => {
  it('calls it from the first number, once the last change is saved', async () => {
    const { puts } = renderTab({ tier: 'premium', numbers: [number, { ...number, id: 'n2', phoneNumber: '+14155550999' }] });
    await loaded();
    await press('Pitch', '{ArrowRight}', 5);
    await userEvent.click(screen.getByRole('button', { name: 'Call the sound-test line' }));
    await waitFor(() => expect(calls.start).toHaveBeenCalledTimes(1));
    expect(puts()).toEqual([{ voiceType: 'normal', pitch: 1.5, speed: 1 }]);
    expect(calls.start).toHaveBeenCalledWith({ from: '+14155550123', to: '+14155550100', countryCode: '+1', voiceChanger: true });
  });

  it('says the call has no voice changer with the default voice', async () => {
    renderTab({ tier: 'free' });
    await loaded();
    await userEvent.click(screen.getByRole('button', { name: 'Call the sound-test line' }));
    await waitFor(() => expect(calls.start).toHaveBeenCalledWith(expect.objectContaining({ voiceChanger: false })));
  });

  it('needs a number first', async () => {
    const { router } = renderTab({ numbers: [] });
    await loaded();
    const button = await screen.findByRole('button', { name: 'Call the sound-test line' });
    await waitFor(() => expect(button).toHaveAccessibleDescription('You need a phone number to call the sound-test line. Add one on the Contacts page.'));
    expect(button).toBeDisabled();
    await userEvent.click(screen.getByRole('link', { name: 'Contacts page' }));
    expect(router.state.location.pathname).toBe('/contacts');
  });

  it('cannot be called during another call', async () => {
    calls.phase = 'active';
    renderTab();
    await loaded();
    expect(screen.getByRole('button', { name: 'Call the sound-test line' })).toBeDisabled();
  });
});

describe('Preview my voice', () => {
  function microphone(getUserMedia: () => Promise<MediaStream>) {
    Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: { getUserMedia: vi.fn(getUserMedia) } });
  }

  it('says clearly when the microphone is refused', async () => {
    microphone(() => Promise.reject(Object.assign(new Error('denied'), { name: 'NotAllowedError' })));
    renderTab();
    await userEvent.click(screen.getByRole('button', { name: 'Preview my voice' }));
    expect(await screen.findByText('Microphone unavailable')).toBeInTheDocument();
    expect(screen.getByText('Microphone access was refused. Allow the microphone for this site and try again.')).toBeInTheDocument();
    expect(audio.record).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Preview my voice' })).toBeEnabled();
  });

  it('records until stopped, then plays the recording through the voice changer with the shown settings', async () => {
    const stream = { getTracks: () => [] } as unknown as MediaStream;
    microphone(() => Promise.resolve(stream));
    let finishRecording: (samples: Float32Array) => void = () => undefined;
    const stop = vi.fn(() => finishRecording(new Float32Array(16_000).fill(0.1)));
    audio.record.mockImplementation(() => ({ stop, samples: new Promise<Float32Array>((resolve) => (finishRecording = resolve)) }));
    let finishPlaying: () => void = () => undefined;
    audio.play.mockImplementation(() => ({ stop: vi.fn(), ended: new Promise<void>((resolve) => (finishPlaying = resolve)) }));

    renderTab({ tier: 'premium', settings: { voiceType: 'normal', pitch: 1, speed: 2 } });
    await loaded();
    await userEvent.click(screen.getByRole('button', { name: 'Preview my voice' }));
    expect(audio.record).toHaveBeenCalledWith(stream, MAX_PREVIEW_SECONDS);
    expect(await screen.findByText('Recording... speak now (up to 5 seconds).')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Stop recording' }));

    await waitFor(() => expect(audio.play).toHaveBeenCalledTimes(1));
    const [played, rate] = audio.play.mock.calls[0] as [Float32Array, number];
    expect(rate).toBe(16_000);
    // Speed 2 on a recording: half as long, as the engine promises for the preview.
    expect(played.length).toBe(8_000);
    expect(screen.getByRole('button', { name: 'Stop playback' })).toBeInTheDocument();

    act(() => finishPlaying());
    await userEvent.click(await screen.findByRole('button', { name: 'Play again' }));
    expect(audio.play).toHaveBeenCalledTimes(2);
  });
});
