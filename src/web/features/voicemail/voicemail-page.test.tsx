import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Voicemail } from '../../../common/api/voicemail';
import { renderRoutes } from '../../../../tests/support/render-web';
import { apiError, stubApi, type StubResponder } from '../../../../tests/support/web-fetch';
import { VoicemailPage } from './voicemail-page';

const fromAda: Voicemail = {
  id: 'vm1', from: '+12125550147', to: '+14155550123', createdAt: '2026-11-22T10:00:00.000Z', durationSec: 14, heard: false, callId: 'c1', state: 'saved',
};
const fromStranger: Voicemail = { ...fromAda, id: 'vm2', from: '+17185550188', durationSec: 65, heard: true, callId: null };
const ada = { id: 'k1', name: 'Ada Lovelace', phoneNumber: '+12125550147', email: null, voice: null, createdAt: '2026-11-01T00:00:00.000Z' };

function renderPage(answers: Record<string, StubResponder>, path = '/voicemail') {
  const api = stubApi({ 'GET /api/v1/contacts': { status: 200, body: { contacts: [ada] } }, ...answers });
  vi.stubGlobal('fetch', api.fetchStub);
  return { ...renderRoutes([{ path: '/voicemail', element: <VoicemailPage /> }], path), api };
}

const messages = () => screen.findAllByRole('listitem');

beforeEach(() => {
  Element.prototype.scrollIntoView = vi.fn();
});

afterEach(() => vi.unstubAllGlobals());

describe('Voicemail page', () => {
  it('lists each message with its caller (named from the contacts), time and duration; unheard ones are labelled', async () => {
    renderPage({ 'GET /api/v1/voicemail': { status: 200, body: { voicemails: [fromAda, fromStranger], unheard: 1 } } });
    expect(screen.getByRole('heading', { level: 1, name: 'Voicemail' })).toBeInTheDocument();
    expect(screen.getByText('Loading voicemail...')).toBeInTheDocument();

    const [first, second] = await messages();
    expect(await within(first!).findByRole('heading', { name: 'Ada Lovelace, unheard' })).toBeInTheDocument();
    expect(first).toHaveTextContent('+1 (212) 555-0147');
    expect(first).toHaveTextContent('0:14');
    expect(first).toHaveTextContent('Unheard');
    expect(first).toHaveAttribute('data-heard', 'false');
    expect(within(second!).getByRole('heading', { name: '+1 (718) 555-0188' })).toBeInTheDocument();
    expect(second).toHaveTextContent('1:05');
    expect(second).not.toHaveTextContent('Unheard');
    expect(screen.getByText('1 unheard')).toBeInTheDocument();

    const audio = screen.getByLabelText('Message from Ada Lovelace');
    expect(audio.tagName).toBe('AUDIO');
    expect(audio).toHaveAttribute('src', '/api/v1/voicemail/vm1/audio');
    expect(audio).toHaveAttribute('preload', 'none');
  });

  it('says so when there is no message, and when the list cannot be loaded, with a retry', async () => {
    renderPage({ 'GET /api/v1/voicemail': [apiError(500, 'internal', 'Something went wrong'), { status: 200, body: { voicemails: [], unheard: 0 } }] });
    const failure = await screen.findByRole('alert');
    expect(failure).toHaveTextContent('Failed to load voicemail');
    expect(failure).toHaveTextContent('Something went wrong');
    await userEvent.click(within(failure).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No voicemail yet')).toBeInTheDocument();
  });

  it('marks a message heard when it is played, once, and the count follows', async () => {
    const { api } = renderPage({
      'GET /api/v1/voicemail': { status: 200, body: { voicemails: [fromAda], unheard: 1 } },
      'PATCH /api/v1/voicemail/vm1': { status: 200, body: { ...fromAda, heard: true } },
    });
    fireEvent.play(await screen.findByLabelText('Message from Ada Lovelace'));
    await waitFor(() => expect(api.sent('PATCH', '/api/v1/voicemail/vm1')).toEqual([expect.objectContaining({ body: { heard: true } })]));
    expect(await screen.findByText('All messages heard')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Ada Lovelace' })).toBeInTheDocument();
    fireEvent.play(screen.getByLabelText('Message from Ada Lovelace'));
    expect(api.sent('PATCH', '/api/v1/voicemail/vm1')).toHaveLength(1);
  });

  it('marks a message heard and unheard with its button', async () => {
    const { api } = renderPage({
      'GET /api/v1/voicemail': { status: 200, body: { voicemails: [fromAda], unheard: 1 } },
      'PATCH /api/v1/voicemail/vm1': ({ body }) => ({ status: 200, body: { ...fromAda, heard: (body as { heard: boolean }).heard } }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Mark as heard' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Mark as unheard' }));
    expect(await screen.findByRole('button', { name: 'Mark as heard' })).toBeInTheDocument();
    expect(api.sent('PATCH', '/api/v1/voicemail/vm1').map((request) => request.body)).toEqual([{ heard: true }, { heard: false }]);
  });

  it('deletes a message after asking, and shows the server’s reason when it cannot', async () => {
    let deleted = false;
    const { api } = renderPage({
      'GET /api/v1/voicemail': () => ({ status: 200, body: deleted ? { voicemails: [], unheard: 0 } : { voicemails: [fromAda], unheard: 1 } }),
      'DELETE /api/v1/voicemail/vm1': [apiError(503, 'unavailable', 'Storage is unreachable, try again'), { status: 204 }],
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete this voicemail?' });
    expect(dialog).toHaveTextContent('The message from Ada Lovelace is removed for good.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByText('Storage is unreachable, try again')).toBeInTheDocument();

    deleted = true;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Voicemail deleted')).toBeInTheDocument();
    expect(await screen.findByText('No voicemail yet')).toBeInTheDocument();
    expect(api.sent('DELETE', '/api/v1/voicemail/vm1')).toHaveLength(2);
  });

  it('shows why a message has no audio instead of a player', async () => {
    renderPage({ 'GET /api/v1/voicemail': { status: 200, body: { voicemails: [{ ...fromAda, state: 'failed' }], unheard: 1 } } });
    expect(await screen.findByText('This message could not be saved.')).toBeInTheDocument();
    expect(screen.queryByLabelText('Message from Ada Lovelace')).not.toBeInTheDocument();
  });

  it('brings the message a missed call links to into view', async () => {
    renderPage({ 'GET /api/v1/voicemail': { status: 200, body: { voicemails: [fromAda, fromStranger], unheard: 1 } } }, '/voicemail#voicemail-vm2');
    const [, second] = await messages();
    await waitFor(() => expect(Element.prototype.scrollIntoView).toHaveBeenCalled());
    expect(vi.mocked(Element.prototype.scrollIntoView).mock.contexts[0]).toBe(second);
  });
});
