import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Preferences } from '../../../../common/api/preferences';
import { FakeSignalling } from '../../../../../tests/support/fake-signalling';
import { renderRoutes } from '../../../../../tests/support/render-web';
import { stubApi } from '../../../../../tests/support/web-fetch';
import { RealtimeClientProvider } from '../../../lib/realtime';
import { ReadinessPanel } from './readiness-panel';

/** The app's realtime client as the checks see it: connected or not, and reconnecting on demand. */
class ReconnectableSignalling extends FakeSignalling {
  connected = true;
  reconnectNow = vi.fn(() => {
    this.connected = true;
    this.reconnect();
  });
}

const number = { id: 'n1', phoneNumber: '+14155550123', friendlyName: 'Work', active: true, country: 'US', monthlyCost: '1.00', currency: 'USD', createdAt: '2026-11-01T00:00:00.000Z' };
const preferences: Preferences = { darkMode: false, notifications: true, callHistory: true, dataUsage: false, autoAnswer: false, recordCalls: false };

/** The browser's side: permission states, notification permission, and an AudioContext's starting state. */
function stubBrowser({ microphone = 'granted', notification = 'granted', audio = 'running' }: { microphone?: PermissionState; notification?: NotificationPermission; audio?: AudioContextState } = {}) {
  const query = vi.fn(async ({ name }: { name: string }) => ({ state: name === 'microphone' ? microphone : 'prompt' }));
  Object.defineProperty(navigator, 'permissions', { configurable: true, value: { query } });
  const getUserMedia = vi.fn().mockRejectedValue(new DOMException('refused', 'NotAllowedError'));
  Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: { getUserMedia } });
  const requestPermission = vi.fn(async () => 'granted');
  vi.stubGlobal('Notification', { permission: notification, requestPermission });
  const resume = vi.fn(async () => undefined);
  vi.stubGlobal(
    'AudioContext',
    class {
      state = audio;
      resume = resume;
      close = async () => undefined;
    },
  );
  return { query, getUserMedia, requestPermission, resume };
}

function renderPanel({ numbers = [number] as unknown[], realtime = new ReconnectableSignalling(act) } = {}) {
  vi.stubGlobal('fetch', stubApi({ 'GET /api/v1/numbers': { status: 200, body: { numbers } }, 'GET /api/v1/preferences': { status: 200, body: preferences } }).fetchStub);
  renderRoutes(
    [
      {
        path: '/call-settings',
        element: (
          <RealtimeClientProvider client={realtime}>
            <ReadinessPanel />
          </RealtimeClientProvider>
        ),
      },
      { path: '/contacts', element: <h1>Contacts</h1> },
    ],
    '/call-settings',
  );
  return { realtime, panel: screen.getByRole('region', { name: 'Ready to take calls' }) };
}

async function checkNow(panel: HTMLElement) {
  await userEvent.click(within(panel).getByRole('button', { name: 'Check now' }));
  return within(panel).findByRole('list', { name: 'Readiness checks' });
}

afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'permissions');
  Reflect.deleteProperty(navigator, 'mediaDevices');
});

describe('ReadinessPanel', () => {
  it('asks for nothing until Check now, then shows each check with its status', async () => {
    const browser = stubBrowser({ microphone: 'denied', notification: 'default', audio: 'suspended' });
    const { panel } = renderPanel();
    expect(browser.query).not.toHaveBeenCalled();
    const list = await checkNow(panel);
    expect(within(list).getByRole('listitem', { name: 'Microphone: Failed' })).toHaveTextContent('blocked for this site');
    expect(within(list).getByRole('listitem', { name: 'Speaker: Warning' })).toBeInTheDocument();
    expect(within(list).getByRole('listitem', { name: 'Notifications: Warning' })).toBeInTheDocument();
    expect(within(list).getByRole('listitem', { name: 'Ringtone sound: Warning' })).toBeInTheDocument();
    expect(within(list).getByRole('listitem', { name: 'Connection: OK' })).toBeInTheDocument();
    expect(within(list).getByRole('listitem', { name: 'Phone number: OK' })).toBeInTheDocument();
    expect(within(panel).getByRole('status')).toHaveTextContent('1 check failed, 3 with warnings.');
    // Reading the states asked for no permission.
    expect(browser.getUserMedia).not.toHaveBeenCalled();
    expect(browser.requestPermission).not.toHaveBeenCalled();
  });

  it('asks for a permission only through its fix-it button, then checks again', async () => {
    const browser = stubBrowser({ notification: 'default' });
    const { panel } = renderPanel();
    const list = await checkNow(panel);
    await userEvent.click(within(within(list).getByRole('listitem', { name: 'Notifications: Warning' })).getByRole('button', { name: 'Allow notifications' }));
    expect(browser.requestPermission).toHaveBeenCalledTimes(1);
    expect(browser.query).toHaveBeenCalledTimes(2);
  });

  it('says when the microphone is refused from "Allow microphone"', async () => {
    stubBrowser({ microphone: 'prompt' });
    const { panel } = renderPanel();
    const list = await checkNow(panel);
    await userEvent.click(within(list).getByRole('button', { name: 'Allow microphone' }));
    expect(await within(panel).findByRole('alert')).toHaveTextContent('Microphone access was refused');
  });

  it('reconnects the realtime connection and points to renting a number', async () => {
    stubBrowser();
    const realtime = new ReconnectableSignalling(act);
    realtime.connected = false;
    const { panel } = renderPanel({ numbers: [], realtime });
    const list = await checkNow(panel);
    expect(within(list).getByRole('link', { name: 'Rent a number' })).toHaveAttribute('href', '/contacts');
    await userEvent.click(within(within(list).getByRole('listitem', { name: 'Connection: Failed' })).getByRole('button', { name: 'Reconnect' }));
    expect(realtime.reconnectNow).toHaveBeenCalled();
    expect(await within(panel).findByRole('listitem', { name: 'Connection: OK' })).toBeInTheDocument();
  });

  it('unlocks sound with a click', async () => {
    const browser = stubBrowser({ audio: 'suspended' });
    const { panel } = renderPanel();
    const list = await checkNow(panel);
    await userEvent.click(within(list).getByRole('button', { name: 'Allow sound' }));
    expect(browser.resume).toHaveBeenCalled();
  });
});
