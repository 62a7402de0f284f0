import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Preferences } from '../../common/api/preferences';
import { FakeSignalling } from '../../../tests/support/fake-signalling';
import { renderRoutes } from '../../../tests/support/render-web';
import { stubApi } from '../../../tests/support/web-fetch';
import { RealtimeClientProvider } from '../lib/realtime';
import { loadPhoneLibrary } from '../lib/phone-library';
import { preferencesQuery } from '../lib/preferences';
import { VoicemailAlerts } from './voicemail-alerts';
import { NavBar } from './nav-bar';

const preferences: Preferences = { darkMode: false, notifications: true, callHistory: true, dataUsage: false, autoAnswer: false, recordCalls: false };
const message = { id: 'vm1', from: '+12125550147', to: '+14155550123', createdAt: '2026-11-22T10:00:00.000Z', durationSec: 9, heard: false, callId: null, state: 'saved' };

/** Notification as far as the alert uses it, with what it was asked to show. */
function fakeNotifications(permission: NotificationPermission) {
  const shown: { title: string; options?: NotificationOptions }[] = [];
  class FakeNotification {
    static permission = permission;
    onclick: (() => void) | null = null;
    constructor(title: string, options?: NotificationOptions) {
      shown.push({ title, ...(options ? { options } : {}) });
    }
    close() {}
  }
  vi.stubGlobal('Notification', FakeNotification);
  return shown;
}

function renderAlerts(prefs: Preferences = preferences) {
  let delivered = 0;
  const api = stubApi({
    'GET /api/v1/voicemail': () => ({ status: 200, body: delivered === 0 ? { voicemails: [], unheard: 0 } : { voicemails: [message], unheard: 1 } }),
  });
  vi.stubGlobal('fetch', api.fetchStub);
  const realtime = new FakeSignalling(act);
  const view = renderRoutes(
    [
      {
        path: '*',
        element: (
          <RealtimeClientProvider client={realtime}>
            <VoicemailAlerts />
            <NavBar />
          </RealtimeClientProvider>
        ),
      },
    ],
    '/dialer',
  );
  view.queryClient.setQueryData(preferencesQuery.queryKey, prefs);
  const deliver = () => {
    delivered += 1;
    realtime.deliver({ type: 'voicemail.new', voicemailId: 'vm1', from: '+12125550147', at: '2026-11-22T10:00:00.000Z' });
  };
  return { ...view, api, deliver };
}

afterEach(() => vi.unstubAllGlobals());

// The alert names the number formatted, as it does once the page has loaded the phone library.
beforeAll(() => loadPhoneLibrary());

describe('VoicemailAlerts', () => {
  it('on a new message, reloads the list (the navigation counts it), says who called and notifies when allowed', async () => {
    const shown = fakeNotifications('granted');
    const { api, deliver } = renderAlerts();
    await waitFor(() => expect(api.sent('GET', '/api/v1/voicemail')).toHaveLength(1));
    expect(screen.getByRole('link', { name: 'Voicemail' })).toBeInTheDocument();

    deliver();
    expect(await screen.findByText('New voicemail from +1 (212) 555-0147')).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Voicemail, 1 unheard' })).toHaveAttribute('href', '/voicemail');
    expect(shown).toEqual([{ title: 'New voicemail', options: { body: 'From +1 (212) 555-0147', tag: 'voxline-voicemail-vm1' } }]);
  });

  it('shows no system notification when the Notifications preference is off, or permission was not given', async () => {
    const shown = fakeNotifications('granted');
    const off = renderAlerts({ ...preferences, notifications: false });
    off.deliver();
    expect(await screen.findByText('New voicemail from +1 (212) 555-0147')).toBeInTheDocument();
    expect(shown).toEqual([]);
    off.unmount();

    const refused = fakeNotifications('denied');
    renderAlerts().deliver();
    expect(await screen.findByText('New voicemail from +1 (212) 555-0147')).toBeInTheDocument();
    expect(refused).toEqual([]);
  });
});
