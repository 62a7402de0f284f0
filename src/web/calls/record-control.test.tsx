import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Tier } from '../../common/plans';
import { subscriptionQuery } from '../lib/subscription';
import type { CallSnapshot } from './call-snapshot';
import { answeredAt, answeredCall } from './call-snapshot.test-support';
import type { ElapsedSecondsStore } from './elapsed-seconds';
import { RecordControl } from './record-control';

/** The call has been up 95 s. */
const elapsed: ElapsedSecondsStore = { subscribe: () => () => {}, getSnapshot: () => 95 };

function renderControl(tier: Tier, fields: Partial<CallSnapshot> = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { enabled: false } } });
  client.setQueryData(subscriptionQuery.queryKey, { tier, isActive: tier !== 'free', expiryDate: null });
  const onToggle = vi.fn();
  render(
    <QueryClientProvider client={client}>
      <RecordControl call={{ ...answeredCall, ...fields }} elapsed={elapsed} onToggle={onToggle} />
    </QueryClientProvider>,
  );
  return onToggle;
}

describe('RecordControl', () => {
  it('records on a paid plan: Record toggles, then Stop recording with a red badge of the recording’s time', async () => {
    const onToggle = renderControl('premium');
    const record = screen.getByRole('button', { name: 'Record' });
    expect(record).toHaveAttribute('aria-pressed', 'false');
    expect(record).toBeEnabled();
    await userEvent.click(record);
    expect(onToggle).toHaveBeenCalledOnce();
  });

  it('shows the recording’s own time (mm:ss) and tells screen readers it is on', () => {
    renderControl('platinum', { recordingSince: answeredAt + 30_000 });
    const stop = screen.getByRole('button', { name: 'Stop recording' });
    expect(stop).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByText(/Recording 01:05/)).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Recording this call');
  });

  it('is disabled on Free, naming the plans that record calls', () => {
    renderControl('free');
    const record = screen.getByRole('button', { name: 'Record' });
    expect(record).toBeDisabled();
    expect(record).toHaveAccessibleDescription('Call recording is part of Premium and Platinum.');
  });

  it('waits for the call to be answered', () => {
    renderControl('premium', { phase: 'ringing', answeredAt: null });
    expect(screen.getByRole('button', { name: 'Record' })).toBeDisabled();
  });

  it('says when the other side records the call', () => {
    renderControl('free', { recordedByOther: true });
    expect(screen.getByRole('status')).toHaveTextContent('This call is being recorded');
    expect(screen.queryByText(/Recording \d/)).not.toBeInTheDocument();
  });
});
