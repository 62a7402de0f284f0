import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithRoute } from '../../../tests/support/render-web';
import { stubApi } from '../../../tests/support/web-fetch';
import { PENDING_PAYMENT_KEY } from '../lib/pending-payment';
import { PendingPaymentVerifier } from './pending-payment-verifier';

afterEach(() => vi.unstubAllGlobals());

const premium = { tier: 'premium', isActive: true, expiryDate: '2026-12-15T10:00:00.000Z' };

describe('PendingPaymentVerifier', () => {
  it('verifies the payment reference kept before log-in, once, and forgets it', async () => {
    window.sessionStorage.setItem(PENDING_PAYMENT_KEY, 'VXL-42');
    const api = stubApi({
      'POST /api/v1/payments/VXL-42/verify': {
        status: 200,
        body: { verified: true, status: 'success', message: 'Your Platinum subscription has been activated!', planType: 'platinum', subscription: { ...premium, tier: 'platinum' } },
      },
    });
    vi.stubGlobal('fetch', api.fetchStub);
    renderWithRoute(<PendingPaymentVerifier />, '/dialer');
    expect(await screen.findByText('Verifying payment')).toBeInTheDocument();
    expect(await screen.findByText('Payment verified')).toBeInTheDocument();
    expect(screen.getByText('Your Platinum subscription has been activated!')).toBeInTheDocument();
    expect(window.sessionStorage.getItem(PENDING_PAYMENT_KEY)).toBeNull();
    await waitFor(() => expect(api.sent('POST', '/api/v1/payments/VXL-42/verify')).toHaveLength(1));
  });

  it('does nothing without a kept reference', async () => {
    const api = stubApi({});
    vi.stubGlobal('fetch', api.fetchStub);
    renderWithRoute(<PendingPaymentVerifier />, '/dialer');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(api.requests).toEqual([]);
  });
});
