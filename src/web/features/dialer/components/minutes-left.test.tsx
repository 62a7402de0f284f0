import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Minutes } from '../../../../common/api/subscription';
import { renderRoutes } from '../../../../../tests/support/render-web';
import { stubApi } from '../../../../../tests/support/web-fetch';
import { CallProvider } from '../../../calls/call-context';
import { MinutesLeft } from './minutes-left';

const base: Minutes = { tier: 'free', monthlyMinutes: 10, usedSeconds: 150, secondsLeft: 450, resetsAt: '2026-12-01T00:00:00.000Z' };

function renderMinutes(minutes: Minutes) {
  vi.stubGlobal('fetch', stubApi({ 'GET /api/v1/subscription/minutes': { status: 200, body: minutes } }).fetchStub);
  const element = (
    <CallProvider>
      <MinutesLeft />
    </CallProvider>
  );
  return renderRoutes(
    [
      { path: '/dialer', element },
      { path: '/settings', element: <h1>Settings</h1> },
    ],
    '/dialer',
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('MinutesLeft', () => {
  it("shows the minutes left of the plan's month", async () => {
    renderMinutes(base);
    expect(await screen.findByText('Minutes left this month: 7:30 of 10:00')).toBeInTheDocument();
  });

  it('shows unlimited minutes on Platinum', async () => {
    renderMinutes({ ...base, tier: 'platinum', monthlyMinutes: null, secondsLeft: null });
    expect(await screen.findByText('Unlimited minutes')).toBeInTheDocument();
  });

  it("says 'Monthly minutes used up' with a link to upgrade", async () => {
    const { router } = renderMinutes({ ...base, usedSeconds: 600, secondsLeft: 0 });
    expect(await screen.findByText('Monthly minutes used up')).toHaveAttribute('role', 'status');
    await userEvent.click(screen.getByRole('link', { name: 'Upgrade your plan' }));
    expect(router.state.location.pathname + router.state.location.search).toBe('/settings?tab=subscription');
  });
});
