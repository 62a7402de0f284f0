import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Preferences } from '../../common/api/preferences';
import type { Session } from '../../common/api/session';
import { renderRoutes } from '../../../tests/support/render-web';
import { stubApi } from '../../../tests/support/web-fetch';
import { ThemeToggle } from '../components/theme-toggle';
import { PreferencesThemeSync } from './preferences';
import { sessionQuery } from './session';

const session: Session = { user: { id: 'u1', email: 'ada@example.com', fullName: 'Ada Lovelace' } };
const preferences: Preferences = { darkMode: true, notifications: true, callHistory: true, dataUsage: false, autoAnswer: false, recordCalls: false };

function renderToggle() {
  const api = stubApi({
    'GET /api/v1/preferences': { status: 200, body: preferences },
    'PATCH /api/v1/preferences': ({ body }) => ({ status: 200, body: { ...preferences, ...(body as Partial<Preferences>) } }),
  });
  vi.stubGlobal('fetch', api.fetchStub);
  // With the saved theme's sync, as the signed-in frame (AppLayout) has it.
  const view = renderRoutes(
    [
      {
        path: '*',
        element: (
          <>
            <PreferencesThemeSync />
            <ThemeToggle />
          </>
        ),
      },
    ],
    '/',
  );
  const signIn = () => act(() => view.queryClient.setQueryData(sessionQuery.queryKey, session));
  return { ...view, api, signIn };
}

afterEach(() => vi.unstubAllGlobals());

describe('the theme and the Dark Mode preference', () => {
  it('leave a signed-out visitor to local storage, with no request', async () => {
    const { api } = renderToggle();
    await userEvent.click(screen.getByRole('button', { name: 'Switch to dark mode' }));
    expect(document.documentElement).toHaveClass('dark');
    expect(window.localStorage.getItem('theme')).toBe('dark');
    expect(api.requests).toHaveLength(0);
  });

  it("apply the signed-in user's saved Dark Mode once the session loads", async () => {
    window.localStorage.setItem('theme', 'light');
    const { api, signIn } = renderToggle();
    expect(document.documentElement).toHaveClass('light');
    signIn();
    await waitFor(() => expect(document.documentElement).toHaveClass('dark'));
    expect(window.localStorage.getItem('theme')).toBe('dark');
    expect(api.sent('GET', '/api/v1/preferences')).toHaveLength(1);
  });

  it("save a signed-in user's toggle as their Dark Mode, without re-applying the old value", async () => {
    const { api, signIn, queryClient } = renderToggle();
    signIn();
    await screen.findByRole('button', { name: 'Switch to light mode' });

    await userEvent.click(screen.getByRole('button', { name: 'Switch to light mode' }));
    await waitFor(() => expect(api.sent('PATCH', '/api/v1/preferences')).toHaveLength(1));
    expect(api.sent('PATCH', '/api/v1/preferences')[0]?.body).toEqual({ darkMode: false });
    await waitFor(() => expect(queryClient.getQueryData(['preferences'])).toMatchObject({ darkMode: false }));
    expect(document.documentElement).toHaveClass('light');

    // A later load of the preferences (here still saying dark) does not undo the user's choice.
    await act(() => queryClient.refetchQueries({ queryKey: ['preferences'] }));
    expect(queryClient.getQueryData(['preferences'])).toMatchObject({ darkMode: true });
    expect(document.documentElement).toHaveClass('light');
  });
});
