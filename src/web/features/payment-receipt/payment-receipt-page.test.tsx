import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { Receipt } from '../../../common/api/payments';
import { renderRoutes } from '../../../../tests/support/render-web';
import { apiError, stubApi, type StubResponder } from '../../../../tests/support/web-fetch';
import { PaymentReceiptPage } from './payment-receipt-page';

const receipt: Receipt = {
  company: 'Voxline',
  reference: 'VXL-abc123',
  transactionDate: '2026-11-20T09:30:00.000Z',
  customerName: 'Ada Lovelace',
  customerEmail: 'ada@example.com',
  planType: 'premium',
  amountUsd: '100.00',
  amountNgn: '172000.00',
  status: 'success',
  paymentProcessor: 'Voxline Sandbox (test payments)',
  paymentMethod: 'Visa card ending 4081',
  subscription: { tier: 'premium', expiresAt: '2026-12-20T09:30:00.000Z' },
};

const verified = {
  status: 200,
  body: {
    verified: true,
    status: 'success',
    message: 'Your Premium subscription has been activated!',
    planType: 'premium',
    subscription: { tier: 'premium', isActive: true, expiryDate: '2026-12-20T09:30:00.000Z' },
  },
};

function renderReceipt(path: string, answers: Record<string, StubResponder> = {}) {
  const api = stubApi({
    'POST /api/v1/payments/VXL-abc123/verify': verified,
    'GET /api/v1/payments/VXL-abc123/receipt': { status: 200, body: receipt },
    ...answers,
  });
  vi.stubGlobal('fetch', api.fetchStub);
  const view = renderRoutes(
    [
      { path: '/payment/receipt', element: <PaymentReceiptPage /> },
      { path: '/settings', element: <h1>Settings</h1> },
    ],
    path,
  );
  return { ...view, api };
}

/** jsdom has no object URLs: this test's own, put back afterwards. */
function stubObjectUrls(create: (blob: Blob) => string) {
  const original = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };
  URL.createObjectURL = create;
  URL.revokeObjectURL = () => {};
  onTestFinished(() => {
    URL.createObjectURL = original.create;
    URL.revokeObjectURL = original.revoke;
  });
}

let print: ReturnType<typeof vi.fn>;

beforeEach(() => {
  print = vi.fn();
  vi.stubGlobal('print', print);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

async function expectBackOnSubscription(router: ReturnType<typeof renderReceipt>['router']) {
  expect(await screen.findByRole('heading', { name: 'Settings' })).toBeInTheDocument();
  expect(router.state.location.pathname + router.state.location.search).toBe('/settings?tab=subscription');
}

describe('Payment Receipt page', () => {
  it("verifies the payment, shows the receipt card, replaces the URL and says 'Payment Successful'", async () => {
    const { router, api } = renderReceipt('/payment/receipt?trxref=VXL-abc123&reference=VXL-abc123');
    expect(screen.getByRole('heading', { level: 1, name: 'Payment Receipt' })).toBeInTheDocument();
    expect(screen.getByText('Processing your payment...')).toBeInTheDocument();

    const card = await screen.findByRole('article', { name: 'Subscription Payment Confirmation' });
    expect(within(card).getByText('Voxline')).toBeInTheDocument();
    expect(within(card).getByText('Payment Successful')).toBeInTheDocument();
    const rows = Object.fromEntries(within(card).getAllByRole('term').map((term) => [term.textContent, term.nextElementSibling?.textContent]));
    expect(rows).toEqual({
      'Receipt Number': 'VXL-abc123',
      Date: new Date(receipt.transactionDate!).toLocaleString(),
      Customer: 'Ada Lovelace',
      Email: 'ada@example.com',
      Plan: 'Premium',
      'Amount (USD)': '$100.00',
      'Amount (NGN)': '₦172,000.00',
      'Payment Method': 'Visa card ending 4081 via Voxline Sandbox (test payments)',
      Tier: 'Premium',
      'Expires On': new Date(receipt.subscription!.expiresAt).toLocaleString(),
    });
    expect(within(card).getByRole('region', { name: 'Payment Details' })).toBeInTheDocument();
    expect(within(card).getByRole('region', { name: 'Subscription Details' })).toBeInTheDocument();
    expect(card).toHaveTextContent('Thank you for subscribing to Voxline.');

    expect(await screen.findByText('Your subscription has been activated!')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(router.state.location.pathname).toBe('/payment/receipt');
    expect(api.sent('POST', '/api/v1/payments/VXL-abc123/verify')).toHaveLength(1);
  });

  it("shows 'N/A' for a missing date and leaves out subscription details it does not have", async () => {
    renderReceipt('/payment/receipt?reference=VXL-abc123', {
      'GET /api/v1/payments/VXL-abc123/receipt': { status: 200, body: { ...receipt, transactionDate: null, subscription: null, paymentMethod: null } },
    });
    const card = await screen.findByRole('article', { name: 'Subscription Payment Confirmation' });
    expect(within(card).getByText('Date').nextElementSibling).toHaveTextContent('N/A');
    expect(within(card).getByText('Payment Method').nextElementSibling).toHaveTextContent('Voxline Sandbox (test payments)');
    expect(within(card).queryByRole('region', { name: 'Subscription Details' })).toBeNull();
  });

  it("downloads the receipt as a text file named with the brand and the reference, saying 'Receipt downloaded'", async () => {
    const saved: { name: string; blob: Blob }[] = [];
    const blobs = new Map<string, Blob>();
    stubObjectUrls((blob) => {
      blobs.set('blob:receipt', blob);
      return 'blob:receipt';
    });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ name: this.download, blob: blobs.get(this.href)! });
    });
    renderReceipt('/payment/receipt?reference=VXL-abc123');
    await userEvent.click(await screen.findByRole('button', { name: 'Download' }));
    expect(await screen.findByText('Receipt downloaded')).toBeInTheDocument();
    expect(saved.map((file) => file.name)).toEqual(['Voxline-receipt-VXL-abc123.txt']);
    const text = await saved[0]!.blob.text();
    expect(saved[0]!.blob.type).toBe('text/plain;charset=utf-8');
    for (const line of [
      'Voxline',
      'Subscription Payment Confirmation',
      'Payment Successful',
      'Receipt Number: VXL-abc123',
      `Date: ${new Date(receipt.transactionDate!).toLocaleString()}`,
      'Customer: Ada Lovelace',
      'Email: ada@example.com',
      'Plan: Premium',
      'Amount (USD): $100.00',
      'Amount (NGN): ₦172,000.00',
      'Payment Method: Visa card ending 4081 via Voxline Sandbox (test payments)',
      'Tier: Premium',
    ]) {
      expect(text.split('\n')).toContain(line);
    }
  });

  it("says 'Download failed' when the browser cannot save the file", async () => {
    stubObjectUrls(() => {
      throw new Error('no blobs');
    });
    renderReceipt('/payment/receipt?reference=VXL-abc123');
    await userEvent.click(await screen.findByRole('button', { name: 'Download' }));
    expect(await screen.findByText('Download failed')).toBeInTheDocument();
    expect(screen.getByText('Failed to download receipt. Please try again.')).toBeInTheDocument();
  });

  it('prints, and closes back to the Subscription tab', async () => {
    const { router } = renderReceipt('/payment/receipt?reference=VXL-abc123');
    await userEvent.click(await screen.findByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledOnce();
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    await expectBackOnSubscription(router);
  });

  it("goes back to the Subscription tab with 'Payment reference not found' without a reference", async () => {
    const { router, api } = renderReceipt('/payment/receipt');
    await expectBackOnSubscription(router);
    expect(screen.getByText('Payment reference not found')).toBeInTheDocument();
    expect(api.requests).toEqual([]);
  });

  it("goes back with 'Payment Verification Failed' and the server's reason when the payment did not go through", async () => {
    const { router, api } = renderReceipt('/payment/receipt?reference=VXL-abc123', {
      'POST /api/v1/payments/VXL-abc123/verify': { status: 200, body: { ...verified.body, verified: false, status: 'failed', message: 'The payment was declined' } },
    });
    await expectBackOnSubscription(router);
    expect(screen.getByText('Payment Verification Failed')).toBeInTheDocument();
    expect(screen.getByText('The payment was declined')).toBeInTheDocument();
    expect(api.sent('GET', '/api/v1/payments/VXL-abc123/receipt')).toHaveLength(0);
  });

  it("goes back with 'Payment Verification Failed' for a reference that is not the user's", async () => {
    const { router } = renderReceipt('/payment/receipt?reference=VXL-abc123', { 'POST /api/v1/payments/VXL-abc123/verify': apiError(404, 'not_found', 'Payment not found') });
    await expectBackOnSubscription(router);
    expect(screen.getByText('Payment Verification Failed')).toBeInTheDocument();
    expect(screen.getByText('Payment not found')).toBeInTheDocument();
  });

  it("goes back with 'Receipt Generation Failed' when the receipt cannot be had", async () => {
    const { router } = renderReceipt('/payment/receipt?reference=VXL-abc123', {
      'GET /api/v1/payments/VXL-abc123/receipt': apiError(409, 'payment_not_verified', 'This payment has not been verified as successful'),
    });
    await expectBackOnSubscription(router);
    expect(screen.getByText('Receipt Generation Failed')).toBeInTheDocument();
    expect(screen.getByText('Could not generate receipt for your payment')).toBeInTheDocument();
  });

  it("goes back with 'An error occurred while fetching your receipt' when the server cannot be reached", async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    const { router } = renderRoutes(
      [
        { path: '/payment/receipt', element: <PaymentReceiptPage /> },
        { path: '/settings', element: <h1>Settings</h1> },
      ],
      '/payment/receipt?reference=VXL-abc123',
    );
    await expectBackOnSubscription(router);
    expect(screen.getByText('An error occurred while fetching your receipt')).toBeInTheDocument();
  });
});
