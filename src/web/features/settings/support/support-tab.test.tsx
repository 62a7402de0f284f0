import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SupportRequest } from '../../../../common/api/support';
import type { Tier } from '../../../../common/plans';
import { renderRoutes } from '../../../../../tests/support/render-web';
import { apiError, stubApi, type StubResponder } from '../../../../../tests/support/web-fetch';
import { SettingsPage } from '../settings-page';

const earlier: SupportRequest = {
  id: 'r1',
  subject: 'Voicemail greeting',
  message: 'My greeting does not play to callers.',
  tier: 'platinum',
  createdAt: '2026-11-20T10:00:00.000Z',
  replyDueAt: '2026-11-20T12:00:00.000Z',
  delivered: true,
};

const sent: SupportRequest = {
  id: 'r2',
  subject: 'Callers hear an echo',
  message: 'Every caller hears an echo since this morning.',
  tier: 'platinum',
  createdAt: '2026-11-27T15:00:00.000Z',
  replyDueAt: '2026-11-27T17:00:00.000Z',
  delivered: true,
};

function renderSupport(tier: Tier, answers: Record<string, StubResponder> = {}) {
  const api = stubApi({
    'GET /api/v1/subscription': { status: 200, body: { tier, isActive: tier !== 'free', expiryDate: tier === 'free' ? null : '2026-12-27T00:00:00.000Z' } },
    'GET /api/v1/support': { status: 200, body: { requests: [] } },
    ...answers,
  });
  vi.stubGlobal('fetch', api.fetchStub);
  renderRoutes([{ path: '/settings', element: <SettingsPage /> }], '/settings?tab=support');
  return api;
}

afterEach(() => vi.unstubAllGlobals());

async function fillIn(subject: string, message: string) {
  const user = userEvent.setup();
  if (subject) await user.type(screen.getByRole('textbox', { name: 'Subject' }), subject);
  if (message) await user.type(screen.getByRole('textbox', { name: 'Message' }), message);
  return user;
}

describe('Settings › Support', () => {
  it.each([
    ['platinum', 'Platinum: 24/7 support', 'Answered within 2 hours, any day.'],
    ['premium', 'Premium: Standard support', 'Answered within 1 business day (Monday to Friday).'],
    ['free', 'Free: Email support', 'Answered within 5 business days (Monday to Friday).'],
  ] as const)('shows the %s plan’s support level above the form', async (tier, name, description) => {
    renderSupport(tier);
    expect(screen.getByRole('tab', { name: 'Support' })).toHaveAttribute('aria-selected', 'true');
    const level = await screen.findByRole('region', { name: 'Your support level' });
    expect(level).toHaveTextContent(name);
    expect(level).toHaveTextContent(description);
    expect(await screen.findByText('You have not written to support yet.')).toBeInTheDocument();
  });

  it('names each wrong field and sends nothing', async () => {
    const api = renderSupport('premium');
    const user = await fillIn('', 'too short');
    await user.click(screen.getByRole('button', { name: 'Send to support' }));
    expect(await screen.findByText('Subject is required')).toBeInTheDocument();
    expect(screen.getByText('Message must be at least 10 characters: say what happened')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveAttribute('aria-invalid', 'true');
    expect(api.sent('POST', '/api/v1/support')).toEqual([]);
  });

  it('sends the request, waits while it is in flight, then confirms when the answer is due and lists it', async () => {
    let answer: (value: { status: number; body: unknown }) => void = () => {};
    const api = renderSupport('platinum', {
      'POST /api/v1/support': () => new Promise((resolve) => (answer = resolve)),
      'GET /api/v1/support': [{ status: 200, body: { requests: [earlier] } }, { status: 200, body: { requests: [sent, earlier] } }],
    });
    const list = await screen.findByRole('list', { name: 'Your requests' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);

    const user = await fillIn('Callers hear an echo', 'Every caller hears an echo since this morning.');
    await user.click(screen.getByRole('button', { name: 'Send to support' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Send to support' })).toBeDisabled());
    expect(screen.getByRole('button', { name: 'Send to support' })).toHaveAttribute('aria-busy', 'true');
    expect(api.sent('POST', '/api/v1/support').map((request) => request.body)).toEqual([{ subject: 'Callers hear an echo', message: 'Every caller hears an echo since this morning.' }]);

    answer({ status: 201, body: sent });
    expect(await screen.findByText(/^Message sent\./)).toHaveTextContent(`Message sent. We will answer by ${new Date(sent.replyDueAt).toLocaleString()}.`);
    expect(screen.getByRole('textbox', { name: 'Subject' })).toHaveValue('');
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Your requests' })).getAllByRole('listitem')).toHaveLength(2));
    expect(within(screen.getByRole('list', { name: 'Your requests' })).getAllByRole('listitem')[0]).toHaveTextContent('Callers hear an echo');
  });

  it('says so when support could not be reached, and marks the request not delivered', async () => {
    renderSupport('premium', {
      'POST /api/v1/support': apiError(502, 'provider_failed', 'Your message is saved, but it could not be sent to support just now. Please send it again in a few minutes.'),
      'GET /api/v1/support': [{ status: 200, body: { requests: [] } }, { status: 200, body: { requests: [{ ...sent, tier: 'premium', delivered: false }] } }],
    });
    const user = await fillIn('Callers hear an echo', 'Every caller hears an echo since this morning.');
    await user.click(screen.getByRole('button', { name: 'Send to support' }));
    const alert = await screen.findByText('Your message was not sent.');
    expect(alert.closest('[role="alert"]')).toHaveTextContent('could not be sent to support just now');
    expect(await screen.findByText(/not delivered to support: send it again/)).toBeInTheDocument();
    expect(screen.queryByText(/Message sent/)).not.toBeInTheDocument();
  });

  it('shows the hourly limit the server names', async () => {
    renderSupport('free', { 'POST /api/v1/support': apiError(429, 'rate_limited', 'You can send at most 5 support requests an hour. Try again in 40 minutes.') });
    const user = await fillIn('Another one', 'One more question about my plan.');
    await user.click(screen.getByRole('button', { name: 'Send to support' }));
    expect(await screen.findByText(/You can send at most 5 support requests an hour\. Try again in 40 minutes\./)).toBeInTheDocument();
  });
});
