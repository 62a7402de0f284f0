import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithRoute } from '../../../../../tests/support/render-web';
import { apiError, stubApi } from '../../../../../tests/support/web-fetch';
import { CallHistory } from './call-history';

const recorded = {
  id: 'c1',
  direction: 'outbound',
  from: '+14155550123',
  to: '+19175550177',
  state: 'ended',
  outcome: 'completed',
  reason: null,
  startedAt: '2026-11-20T10:00:00.000Z',
  answeredAt: '2026-11-20T10:00:01.000Z',
  endedAt: '2026-11-20T10:00:08.000Z',
  durationSec: 7,
  mediaTransport: 'webrtc',
  mediaFigures: null,
  recordingId: 'r1',
};
const notRecorded = { ...recorded, id: 'c2', to: '+19175550199', recordingId: null };

afterEach(() => vi.unstubAllGlobals());

describe('CallHistory recordings', () => {
  it('gives a recorded call a player that loads only when played, and a download link', async () => {
    vi.stubGlobal('fetch', stubApi({ '/api/v1/calls': { status: 200, body: { calls: [recorded, notRecorded] } } }).fetchStub);
    renderWithRoute(<CallHistory onRedial={vi.fn()} />);

    const section = await screen.findByRole('region', { name: 'Recording' });
    const player = within(section).getByLabelText(/^Recording of the call with \+1 \(917\) 555-0177 on /);
    expect(player.tagName).toBe('AUDIO');
    expect(player).toHaveAttribute('src', '/api/v1/recordings/r1/audio');
    expect(player).toHaveAttribute('preload', 'none');
    expect(player).toHaveAttribute('controls');
    const download = within(section).getByRole('link', { name: /^Download recording of the call with \+1 \(917\) 555-0177/ });
    expect(download).toHaveAttribute('href', '/api/v1/recordings/r1/audio?download=1');
    expect(download).toHaveAttribute('download');
    // The call without a recording has none of it.
    expect(screen.getAllByRole('region', { name: 'Recording' })).toHaveLength(1);
    expect(screen.queryByRole('button', { name: /Delete recording of the call with \+1 \(917\) 555-0199/ })).not.toBeInTheDocument();
  });

  it('deletes a recording after a confirmation, then shows the call without it', async () => {
    const api = stubApi({
      'GET /api/v1/calls': [
        { status: 200, body: { calls: [recorded] } },
        { status: 200, body: { calls: [{ ...recorded, recordingId: null }] } },
      ],
      'DELETE /api/v1/recordings/r1': { status: 204 },
    });
    vi.stubGlobal('fetch', api.fetchStub);
    renderWithRoute(<CallHistory onRedial={vi.fn()} />);

    await userEvent.click(await screen.findByRole('button', { name: /^Delete recording of the call with \+1 \(917\) 555-0177/ }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete this recording?' });
    expect(api.sent('DELETE', '/api/v1/recordings/r1')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete recording' }));

    expect(await screen.findByText('Recording deleted')).toBeInTheDocument();
    expect(api.sent('DELETE', '/api/v1/recordings/r1')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Recording' })).not.toBeInTheDocument());
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('keeps the recording and says why when it could not be deleted', async () => {
    vi.stubGlobal(
      'fetch',
      stubApi({
        'GET /api/v1/calls': { status: 200, body: { calls: [recorded] } },
        'DELETE /api/v1/recordings/r1': apiError(503, 'storage_unavailable', 'The recording could not be deleted: storage is unreachable. Try again in a moment.'),
      }).fetchStub,
    );
    renderWithRoute(<CallHistory onRedial={vi.fn()} />);

    await userEvent.click(await screen.findByRole('button', { name: /^Delete recording of the call with/ }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete recording' }));

    expect(await screen.findByText('Failed to delete recording')).toBeInTheDocument();
    expect(screen.getByText('The recording could not be deleted: storage is unreachable. Try again in a moment.')).toBeInTheDocument();
    // Back to screen readers once the closed dialog's effects have cleaned up.
    expect(await screen.findByRole('region', { name: 'Recording' })).toBeInTheDocument();
  });

  it('is cancelled from its dialog without deleting anything', async () => {
    const api = stubApi({ 'GET /api/v1/calls': { status: 200, body: { calls: [recorded] } } });
    vi.stubGlobal('fetch', api.fetchStub);
    renderWithRoute(<CallHistory onRedial={vi.fn()} />);

    const remove = await screen.findByRole('button', { name: /^Delete recording of the call with/ });
    await userEvent.click(remove);
    expect(remove).toHaveAttribute('aria-expanded', 'true');
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    // Focus goes back to the button that opened it.
    await waitFor(() => expect(remove).toHaveFocus());
    expect(remove).toHaveAttribute('aria-expanded', 'false');
    expect(api.requests.filter((request) => request.method === 'DELETE')).toHaveLength(0);
  });
});
