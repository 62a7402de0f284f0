import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Minutes, SubscriptionStatus } from '../../../../common/api/subscription';
import { renderRoutes } from '../../../../../tests/support/render-web';
import { apiError, stubApi, type StubResponder } from '../../../../../tests/support/web-fetch';
import { browserLocation } from '../../../lib/browser-location';
import { SettingsPage } from '../settings-page';

const user = { id: 'u1', email: 'ada@example.com', fullName: 'Ada Lovelace' };
const free: SubscriptionStatus = { tier: 'free', isActive: false, expiryDate: null };
const premium: SubscriptionStatus = { tier: 'premium', isActive: true, expiryDate: '2026-12-15T10:00:00.000Z' };
const freeMinutes: Minutes = { tier: 'free', monthlyMinutes: 10, usedSeconds: 30, secondsLeft: 570, resetsAt: '2026-12-01T00:00:00.000Z' };
const premiumMinutes: Minutes = { tier: 'premium', monthlyMinutes: 150, usedSeconds: 0, secondsLeft: 9000, resetsAt: '2026-12-01T00:00:00.000Z' };

let assign: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function renderTab(path: string, answers: Record<string, StubResponder> = {}) {
  const api = stubApi({
    'GET /api/v1/session': { status: 200, body: { user } },
    'GET /api/v1/subscription': { status: 200, body: free },
    'GET /api/v1/subscription/minutes': { status: 200, body: freeMinutes },
    ...answers,
  });
  vi.stubGlobal('fetch', api.fetchStub);
  return { ...renderRoutes([{ path: '/settings', element: <SettingsPage /> }], path), api };
}

const planCard = (name: string) => screen.getByRole('region', { name });

describe('Subscription tab', () => {
  it('shows a Free user their status and both plans, priced in dollars and naira with their features', async () => {
    renderTab('/settings');
    const details = await screen.findByLabelText('Subscription status');
    expect(details).toHaveTextContent('Current planFree');
    expect(details).toHaveTextContent('StatusInactive');
    expect(details).toHaveTextContent('Expires onNo expiry');
    expect(await within(details).findByText('9:30 of 10:00')).toBeInTheDocument();

    const premiumCard = planCard('Premium');
    expect(premiumCard).toHaveTextContent('$100.00per month');
    expect(premiumCard).toHaveTextContent('₦172,000.00 per month');
    expect(within(premiumCard).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      '150 minutes of calling per month',
      'Basic voice changer with 5 accent options',
      'Call recording, kept 90 days',
      'Voicemail kept 90 days',
      'Standard support',
    ]);
    const platinumCard = planCard('Platinum');
    expect(platinumCard).toHaveTextContent('$150.00per month');
    expect(platinumCard).toHaveTextContent('₦258,000.00 per month');
    expect(within(platinumCard).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Unlimited calls',
      'Advanced voice changer with all accents',
      'Priority call reception when Voxline is busy',
      'Recordings, voicemail and call history kept for a year',
      '24/7 support',
      'Multi-device sync: changes show at once on every open device',
    ]);
    for (const card of [premiumCard, platinumCard]) expect(within(card).getByRole('button', { name: 'Subscribe' })).toBeEnabled();
  });

  it("disables the current tier's button, reading 'Current Plan', and shows the expiry", async () => {
    renderTab('/settings?tab=subscription', {
      'GET /api/v1/subscription': { status: 200, body: premium },
      'GET /api/v1/subscription/minutes': { status: 200, body: premiumMinutes },
    });
    const details = await screen.findByLabelText('Subscription status');
    expect(details).toHaveTextContent('Current planPremium');
    expect(details).toHaveTextContent('StatusActive');
    expect(details).toHaveTextContent(`Expires on${new Date(premium.expiryDate!).toLocaleDateString()}`);
    expect(within(planCard('Premium')).getByRole('button', { name: 'Current Plan' })).toBeDisabled();
    expect(within(planCard('Platinum')).getByRole('button', { name: 'Subscribe' })).toBeEnabled();
    expect(within(planCard('Premium')).queryByRole('button', { name: 'Subscribe' })).toBeNull();
  });

  it('shows unlimited minutes on Platinum', async () => {
    renderTab('/settings', {
      'GET /api/v1/subscription': { status: 200, body: { ...premium, tier: 'platinum' } },
      'GET /api/v1/subscription/minutes': { status: 200, body: { ...premiumMinutes, tier: 'platinum', monthlyMinutes: null, secondsLeft: null } },
    });
    expect(await screen.findByText('Unlimited')).toBeInTheDocument();
    expect(within(planCard('Platinum')).getByRole('button', { name: 'Current Plan' })).toBeDisabled();
  });

  it("starts a payment session at the prices shown and sends the browser to the provider's page", async () => {
    const { api } = renderTab('/settings', {
      'POST /api/v1/payments': { status: 201, body: { reference: 'VXL-1', paymentUrl: 'https://checkout.example/VXL-1', planType: 'platinum', amountUsd: '150.00', amountNgn: '258000.00' } },
    });
    await userEvent.click(await within(await screen.findByRole('region', { name: 'Platinum' })).findByRole('button', { name: 'Subscribe' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.example/VXL-1'));
    expect(api.sent('POST', '/api/v1/payments').map((request) => request.body)).toEqual([
      { planType: 'platinum', amountUSD: 150, amountNGN: 258000, callbackUrl: `${window.location.origin}/payment/receipt` },
    ]);
  });

  it("says 'Payment Error' with the server's reason, or 'Failed to start subscription process' when it cannot be reached", async () => {
    renderTab('/settings', { 'POST /api/v1/payments': apiError(502, 'provider_failed', 'Paystack could not be reached: no answer in time') });
    await userEvent.click(await within(await screen.findByRole('region', { name: 'Premium' })).findByRole('button', { name: 'Subscribe' }));
    expect(await screen.findByText('Payment Error')).toBeInTheDocument();
    expect(screen.getByText('Failed to create payment session: Paystack could not be reached: no answer in time')).toBeInTheDocument();
    expect(assign).not.toHaveBeenCalled();

    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      if ((init?.method ?? 'GET') === 'POST') throw new TypeError('Failed to fetch');
      return new Response(JSON.stringify(String(input).endsWith('/minutes') ? freeMinutes : free), { status: 200 });
    });
    await userEvent.click(within(planCard('Premium')).getByRole('button', { name: 'Subscribe' }));
    expect(await screen.findByText('Failed to start subscription process')).toBeInTheDocument();
  });

  it('asks for an email address it cannot find', async () => {
    renderTab('/settings', { 'GET /api/v1/session': apiError(401, 'unauthenticated', 'You need to sign in first') });
    await userEvent.click(await within(await screen.findByRole('region', { name: 'Premium' })).findByRole('button', { name: 'Subscribe' }));
    expect(await screen.findByText('Authentication Error')).toBeInTheDocument();
    expect(screen.getByText('Your email address could not be retrieved. Please try again later.')).toBeInTheDocument();
  });

  it('verifies the payment on return with ?reference=, then clears the parameter and reloads the status', async () => {
    const { api, router } = renderTab('/settings?tab=subscription&trxref=VXL-7&reference=VXL-7', {
      'GET /api/v1/subscription': [{ status: 200, body: free }, { status: 200, body: premium }],
      'POST /api/v1/payments/VXL-7/verify': {
        status: 200,
        body: { verified: true, status: 'success', message: 'Your Premium subscription has been activated!', planType: 'premium', subscription: premium },
      },
    });
    expect(await screen.findByText('Verifying payment')).toBeInTheDocument();
    expect(await screen.findByText('Payment verified')).toBeInTheDocument();
    expect(screen.getByText('Your Premium subscription has been activated!')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe('?tab=subscription'));
    await waitFor(() => expect(within(planCard('Premium')).getByRole('button', { name: 'Current Plan' })).toBeDisabled());
    expect(api.sent('POST', '/api/v1/payments/VXL-7/verify')).toHaveLength(1);
  });

  it("says 'Payment verification failed' with the reason when the payment did not go through", async () => {
    const { router } = renderTab('/settings?tab=subscription&reference=VXL-8', {
      'POST /api/v1/payments/VXL-8/verify': {
        status: 200,
        body: { verified: false, status: 'failed', message: 'The payment was declined', planType: 'premium', subscription: free },
      },
    });
    expect(await screen.findByText('Payment verification failed')).toBeInTheDocument();
    expect(screen.getByText('The payment was declined')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe('?tab=subscription'));
    expect(within(planCard('Premium')).getByRole('button', { name: 'Subscribe' })).toBeEnabled();
  });

  it("says 'Payment verification failed' for someone else's reference", async () => {
    renderTab('/settings?reference=VXL-9', { 'POST /api/v1/payments/VXL-9/verify': apiError(404, 'not_found', 'Payment not found') });
    expect(await screen.findByText('Payment verification failed')).toBeInTheDocument();
    expect(screen.getByText('Payment not found')).toBeInTheDocument();
  });

  it('says when the status cannot be checked: signed out, or any other failure', async () => {
    renderTab('/settings', { 'GET /api/v1/subscription': apiError(401, 'unauthenticated', 'You must be logged in to check subscription status') });
    expect(await screen.findByText('Authentication Error')).toBeInTheDocument();
    expect(screen.getAllByText('You must be logged in to check subscription status')).not.toHaveLength(0);
  });

  it("says 'Failed to check subscription status' and offers to try again", async () => {
    renderTab('/settings', { 'GET /api/v1/subscription': [apiError(503, 'database_unavailable', 'The database is unavailable right now.'), { status: 200, body: free }] });
    expect(await screen.findByText('Error')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to check subscription status');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByLabelText('Subscription status')).toHaveTextContent('Current planFree');
  });
});
