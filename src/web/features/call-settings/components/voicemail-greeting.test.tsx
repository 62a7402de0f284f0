import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { VoicemailGreeting as Greeting } from '../../../../common/api/voicemail';
import { renderRoutes } from '../../../../../tests/support/render-web';
import { apiError, stubApi, type StubResponder } from '../../../../../tests/support/web-fetch';
import type * as callAudioModule from '../../../audio/call-audio';
import type * as recordMicrophoneModule from '../preview/record-microphone';
import { VoicemailGreeting } from './voicemail-greeting';

// jsdom has no microphone nor MediaRecorder: the recording is stood in for, and finished by the test.
const audio = vi.hoisted(() => ({ open: vi.fn(), record: vi.fn(), stop: vi.fn(), finish: (_samples: Float32Array) => {} }));
vi.mock('../../../audio/call-audio', async (importOriginal) => ({ ...(await importOriginal<typeof callAudioModule>()), openMicrophone: audio.open }));
vi.mock('../preview/record-microphone', async (importOriginal) => ({ ...(await importOriginal<typeof recordMicrophoneModule>()), recordMicrophone: audio.record }));

const defaultGreeting: Greeting = { custom: false, durationSec: 6, updatedAt: null };
const ownGreeting: Greeting = { custom: true, durationSec: 12.4, updatedAt: '2026-11-22T10:00:00.000Z' };

function renderGreeting(answers: Record<string, StubResponder>) {
  const api = stubApi(answers);
  const uploads: { type: string | null; body: Blob }[] = [];
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    if (init?.body instanceof Blob) uploads.push({ type: new Headers(init.headers).get('content-type'), body: init.body });
    return api.fetchStub(input, init);
  });
  const view = renderRoutes([{ path: '/call-settings', element: <VoicemailGreeting /> }], '/call-settings');
  return { ...view, api, uploads };
}

const card = () => screen.getByRole('region', { name: 'Voicemail greeting' });

beforeEach(() => {
  audio.open.mockResolvedValue({ getTracks: () => [] });
  audio.record.mockImplementation(() => {
    const samples = new Promise<Float32Array>((resolve) => {
      audio.finish = resolve;
    });
    return { stop: audio.stop, samples };
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

describe('VoicemailGreeting', () => {
  it('says whether callers hear the default greeting or the user’s own, with a player for it', async () => {
    renderGreeting({ 'GET /api/v1/voicemail/greeting': { status: 200, body: ownGreeting } });
    expect(await within(card()).findByText('Your greeting (12 s)')).toBeInTheDocument();
    const player = within(card()).getByLabelText('Play your greeting');
    expect(player.tagName).toBe('AUDIO');
    expect(player.getAttribute('src')).toMatch(/^\/api\/v1\/voicemail\/greeting\/audio\?v=/);
    expect(within(card()).getByRole('button', { name: 'Use default greeting' })).toBeInTheDocument();
  });

  it('records up to 30 s with a countdown and a Stop button, and uploads 16 kHz mono WAV', async () => {
    const { uploads } = renderGreeting({
      'GET /api/v1/voicemail/greeting': { status: 200, body: defaultGreeting },
      'PUT /api/v1/voicemail/greeting': { status: 200, body: { custom: true, durationSec: 1, updatedAt: '2026-11-22T10:00:00.000Z' } },
    });
    expect(await within(card()).findByText('Default greeting')).toBeInTheDocument();
    expect(within(card()).queryByRole('button', { name: 'Use default greeting' })).not.toBeInTheDocument();

    await userEvent.click(within(card()).getByRole('button', { name: 'Record greeting' }));
    expect(await within(card()).findByRole('timer')).toHaveTextContent('30 s left');
    expect(within(card()).getByRole('status')).toHaveTextContent('Recording... speak now.');
    expect(audio.record).toHaveBeenCalledWith(expect.anything(), 30);
    await userEvent.click(within(card()).getByRole('button', { name: 'Stop' }));
    expect(audio.stop).toHaveBeenCalled();

    audio.finish(new Float32Array(16_000).fill(0.25));
    expect(await screen.findByText('Greeting saved')).toBeInTheDocument();
    expect(await within(card()).findByText('Your greeting (1 s)')).toBeInTheDocument();
    expect(uploads).toHaveLength(1);
    expect(uploads[0]!.type).toBe('audio/wav');
    const header = new DataView(await uploads[0]!.body.arrayBuffer());
    expect(header.byteLength).toBe(44 + 32_000);
    expect([header.getUint16(22, true), header.getUint32(24, true), header.getUint16(34, true)]).toEqual([1, 16_000, 16]);
  });

  it('shows the server’s reason under the control when the upload is refused', async () => {
    renderGreeting({
      'GET /api/v1/voicemail/greeting': { status: 200, body: defaultGreeting },
      'PUT /api/v1/voicemail/greeting': apiError(400, 'invalid_audio', 'The greeting is longer than 30 seconds', 'audio'),
    });
    await userEvent.click(await within(card()).findByRole('button', { name: 'Record greeting' }));
    await within(card()).findByRole('timer');
    audio.finish(new Float32Array(160));
    const alert = await within(card()).findByRole('alert');
    expect(alert).toHaveTextContent('Greeting not saved');
    expect(alert).toHaveTextContent('The greeting is longer than 30 seconds');
    expect(within(card()).getByText('Default greeting')).toBeInTheDocument();
  });

  it('says so when the microphone cannot be opened', async () => {
    audio.open.mockRejectedValue(new Error('Permission denied'));
    renderGreeting({ 'GET /api/v1/voicemail/greeting': { status: 200, body: defaultGreeting } });
    await userEvent.click(await within(card()).findByRole('button', { name: 'Record greeting' }));
    expect(await within(card()).findByRole('alert')).toHaveTextContent('Microphone unavailable: Permission denied');
    expect(audio.record).not.toHaveBeenCalled();
  });

  it('goes back to the default greeting', async () => {
    const { api } = renderGreeting({
      'GET /api/v1/voicemail/greeting': { status: 200, body: ownGreeting },
      'DELETE /api/v1/voicemail/greeting': { status: 200, body: defaultGreeting },
    });
    await userEvent.click(await within(card()).findByRole('button', { name: 'Use default greeting' }));
    expect(await within(card()).findByText('Default greeting')).toBeInTheDocument();
    expect(await screen.findByText('Callers now hear the default greeting')).toBeInTheDocument();
    await waitFor(() => expect(api.sent('DELETE', '/api/v1/voicemail/greeting')).toHaveLength(1));
    expect(within(card()).getByLabelText('Play the default greeting')).toBeInTheDocument();
  });
});
