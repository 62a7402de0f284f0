import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithRoute } from '../../../../../tests/support/render-web';
import { ReceiptCard } from './receipt-card';

const receipt = {
  company: 'Voxline',
  reference: 'VXL-1',
  transactionDate: '2026-11-20T09:30:00.000Z',
  customerName: 'Ada Lovelace',
  customerEmail: 'ada@example.com',
  planType: 'platinum' as const,
  amountUsd: '150.00',
  amountNgn: '258000.00',
  status: 'success' as const,
  paymentProcessor: 'Paystack',
  paymentMethod: null,
  subscription: null,
};

describe('ReceiptCard', () => {
  it("says 'No receipt data available.' without a receipt", () => {
    renderWithRoute(<ReceiptCard receipt={null} />);
    expect(screen.getByText('No receipt data available.')).toBeInTheDocument();
  });

  it('offers Close only when it is given a way to close', () => {
    renderWithRoute(<ReceiptCard receipt={receipt} />);
    expect(screen.getByRole('article', { name: 'Subscription Payment Confirmation' })).toHaveTextContent('₦258,000.00');
    expect(screen.queryByRole('button', { name: 'Close' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Download' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Print' })).toBeInTheDocument();
  });
});
