import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminInstance, AdminLiveCall, AdminPayment } from '../../../common/api/admin';
import { renderRoutes } from '../../../../tests/support/render-web';
import { apiError, stubApi, type StubResponder } from '../../../../tests/support/web-fetch';
import { AdminPage } from './admin-page';

const user = { id: 'u1', email: 'ops@example.com', fullName: 'Olga Operator' };

const liveCall: AdminLiveCall = {
  id: 'call-1',
  direction: 'outbound',
  from: '+16465550142',
  to: '+14155550100',
  callerEmail: 'carla@example.com',
  calleeEmail: null,
  state: 'answered',
  startedAt: '2025-03-01T10:00:00.000Z',
  answeredAt: '2025-03-01T10:00:01.000Z',
  elapsedSec: 75,
  mediaTransport: 'webrtc',
  instanceId: '1f2e3d4c-0000-4000-8000-000000000001',
  media: { framesIn: 7400, framesOut: 7390, concealedFrames: 12 },
};

const instances: AdminInstance[] = [
  { id: '1f2e3d4c-0000-4000-8000-000000000001', state: 'running', startedAt: '2025-03-01T09:00:00.000Z', heartbeatAt: '2025-03-01T10:01:15.000Z', drainingSince: null, calls: 1 },
  { id: '9a8b7c6d-0000-4000-8000-000000000002', state: 'draining', startedAt: '2025-03-01T08:00:00.000Z', heartbeatAt: '2025-03-01T10:01:14.000Z', drainingSince: '2025-03-01T10:00:30.000Z', calls: 0 },
];

const payment: AdminPayment = {
  reference: 'VXL-abc123',
  email: 'paula@example.com',
  plan: 'premium',
  amountUsdMinor: 10_000,
  amountMinor: 17_200_000,
  currency: 'NGN',
  status: 'success',
  createdAt: '2025-03-01T09:30:00.000Z',
};

function renderAdmin(answers: Record<string, StubResponder>) {
  const api = stubApi({
    'GET /api/v1/session': { status: 200, body: { user, isAdmin: true } },
    'GET /api/v1/admin/calls': { status: 200, body: { calls: [liveCall] } },
    'GET /api/v1/admin/instances': { status: 200, body: { instances } },
    'GET /api/v1/admin/payments': { status: 200, body: { payments: [payment] } },
    ...answers,
  });
  vi.stubGlobal('fetch', api.fetchStub);
  return { ...renderRoutes([{ path: '/admin', element: <AdminPage /> }], '/admin'), api };
}

afterEach(() => vi.unstubAllGlobals());

describe('AdminPage', () => {
  it('tells a user who is not an administrator that they have no access, asking nothing of the admin API', async () => {
    const { api } = renderAdmin({ 'GET /api/v1/session': { status: 200, body: { user, isAdmin: false } } });
    expect(await screen.findByRole('heading', { level: 1, name: 'You do not have access to this page' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the dialer' })).toHaveAttribute('href', '/dialer');
    expect(api.requests.filter((request) => request.url.startsWith('/api/v1/admin'))).toEqual([]);
  });

  it('shows the live calls, the instances with their state and the recent payments, each in a captioned table', async () => {
    renderAdmin({});
    expect(await screen.findByRole('heading', { level: 1, name: 'Admin' })).toBeInTheDocument();

    const calls = await screen.findByRole('table', { name: /^Live calls/ });
    const callRow = within(calls).getAllByRole('row')[1]!;
    expect(callRow).toHaveTextContent('+1 (646) 555-0142');
    expect(callRow).toHaveTextContent('carla@example.com');
    expect(callRow).toHaveTextContent('outside Voxline');
    expect(callRow).toHaveTextContent('Talking');
    expect(callRow).toHaveTextContent('1:15');
    expect(callRow).toHaveTextContent('WebRTC (Opus)');
    expect(callRow).toHaveTextContent('7400 / 7390');
    expect(callRow).toHaveTextContent('1f2e3d4c');
    expect(within(calls).getByRole('columnheader', { name: 'Concealed' })).toBeInTheDocument();

    const table = await screen.findByRole('table', { name: /^Instances/ });
    expect(within(table).getByRole('rowheader', { name: '1f2e3d4c' }).closest('tr')).toHaveTextContent('Running');
    expect(within(table).getByRole('rowheader', { name: '9a8b7c6d' }).closest('tr')).toHaveTextContent('Draining');

    const payments = await screen.findByRole('table', { name: /^Recent payments/ });
    const paymentRow = within(payments).getAllByRole('row')[1]!;
    expect(paymentRow).toHaveTextContent('paula@example.com');
    expect(paymentRow).toHaveTextContent('Premium');
    expect(paymentRow).toHaveTextContent('$100.00 (₦172,000.00)');
    expect(paymentRow).toHaveTextContent('success');
  });

  it('says so when nothing is there yet', async () => {
    renderAdmin({
      'GET /api/v1/admin/calls': { status: 200, body: { calls: [] } },
      'GET /api/v1/admin/payments': { status: 200, body: { payments: [] } },
    });
    expect(await screen.findByText('No calls are up right now.')).toBeInTheDocument();
    expect(await screen.findByText('No payments yet.')).toBeInTheDocument();
  });

  it('says what failed to load, with the server’s reason and a way to ask again', async () => {
    renderAdmin({ 'GET /api/v1/admin/instances': apiError(503, 'database_unavailable', 'The database is not answering') });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load instances');
    expect(alert).toHaveTextContent('The database is not answering');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('ends a call after asking, then says it was ended and reads the list again', async () => {
    const { api } = renderAdmin({
      'POST /api/v1/admin/calls/call-1/end': { status: 200, body: { id: 'call-1', outcome: 'completed', reason: 'The call was ended by an administrator' } },
      'GET /api/v1/admin/calls': [
        { status: 200, body: { calls: [liveCall] } },
        { status: 200, body: { calls: [] } },
      ],
    });
    await userEvent.click(await screen.findByRole('button', { name: 'End call from +1 (646) 555-0142 to +1 (415) 555-0100' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'End this call?' });
    expect(dialog).toHaveTextContent('an administrator ended it');
    expect(api.sent('POST', '/api/v1/admin/calls/call-1/end')).toEqual([]);

    await userEvent.click(within(dialog).getByRole('button', { name: 'End call' }));
    expect(await screen.findByText('Call ended')).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(api.sent('POST', '/api/v1/admin/calls/call-1/end')).toHaveLength(1);
    expect(await screen.findByText('No calls are up right now.')).toBeInTheDocument();
  });

  it('keeps the dialog open with the reason when the call could not be ended', async () => {
    renderAdmin({ 'POST /api/v1/admin/calls/call-1/end': apiError(404, 'not_found', 'No such call in progress') });
    await userEvent.click(await screen.findByRole('button', { name: /^End call from / }));
    const dialog = await screen.findByRole('alertdialog', { name: 'End this call?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'End call' }));
    await waitFor(() => expect(dialog).toHaveTextContent('Failed to end the call'));
    expect(dialog).toHaveTextContent('No such call in progress');
  });
});
