import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderRoutes } from '../../../../tests/support/render-web';
import { stubApi } from '../../../../tests/support/web-fetch';
import { CallProvider } from '../../calls/call-context';
import { DialerPage } from './dialer-page';

const user = { id: 'u1', email: 'ada@example.com', fullName: 'Ada Lovelace' };
const number = { id: 'n1', phoneNumber: '+14155550123', friendlyName: 'Work', active: true, country: 'US', monthlyCost: '1.00', currency: 'USD', createdAt: '2026-11-01T00:00:00.000Z' };

function renderDialer(path: string, numbers: unknown[], calls: unknown[] = [], tier = 'free', contacts: unknown[] = []) {
  const api = stubApi({
    '/api/v1/subscription': { status: 200, body: { tier, isActive: tier !== 'free', expiryDate: tier === 'free' ? null : '2026-12-20T00:00:00.000Z' } },
    '/api/v1/session': { status: 200, body: { user } },
    '/api/v1/numbers': { status: 200, body: { numbers } },
    '/api/v1/calls/lines': { status: 200, body: { soundTestNumber: '+14155550100' } },
    '/api/v1/calls': { status: 200, body: { calls } },
    '/api/v1/contacts': { status: 200, body: { contacts } },
  });
  vi.stubGlobal('fetch', api.fetchStub);
  const page = (
    <CallProvider>
      <DialerPage />
    </CallProvider>
  );
  return { ...renderRoutes([{ path: '/dialer', element: page }, { path: '/contacts', element: <h1>Contacts</h1> }], path), api };
}

afterEach(() => {
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

describe('DialerPage', () => {
  it('asks for a number first when the user has none', async () => {
    const { router } = renderDialer('/dialer', []);
    expect(await screen.findByText('You need to add a phone number to make calls.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'Add a phone number' }));
    expect(router.state.location.pathname).toBe('/contacts');
  });

  it('preselects the first number, keeps the keypad’s keys only and edits with the keypad and backspace', async () => {
    const { api } = renderDialer('/dialer', [number]);
    expect(await screen.findByRole('combobox', { name: 'Call from' })).toHaveDisplayValue('+1 (415) 555-0123 · Work');
    const input = screen.getByLabelText('Phone number');
    await userEvent.type(input, '4a1-5');
    expect(input).toHaveValue('415');
    await userEvent.click(screen.getByRole('button', { name: '5' }));
    expect(input).toHaveValue('4155');
    // Before a call, * and # type like digits; the dialled number must be digits only (docs/calls.md#touch-tones).
    await userEvent.click(screen.getByRole('button', { name: 'Star' }));
    await userEvent.type(input, '#');
    expect(input).toHaveValue('4155*#');
    await userEvent.click(screen.getByRole('button', { name: 'Call' }));
    expect(await screen.findByText('Phone number can hold digits only')).toBeInTheDocument();
    expect(screen.getByText('* and # are touch-tones: press them once the call is connected')).toBeInTheDocument();
    expect(api.requests.some((request) => request.method === 'POST')).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Delete last digit' }));
    expect(input).toHaveValue('4155*');
  });

  it('reads a pasted international number into the country and the digits', async () => {
    renderDialer('/dialer', [number]);
    const input = await screen.findByLabelText('Phone number');
    await userEvent.click(input);
    await userEvent.paste('+44 20 7946 0958');
    expect(input).toHaveValue('2079460958');
    expect(screen.getByRole('button', { name: 'Country: United Kingdom +44' })).toBeInTheDocument();
  });

  it('fills in ?to= from a contact', async () => {
    renderDialer('/dialer?to=%2B442079460958', [number]);
    expect(await screen.findByLabelText('Phone number')).toHaveValue('2079460958');
    expect(screen.getByRole('button', { name: 'Country: United Kingdom +44' })).toBeInTheDocument();
  });

  it('refuses to call without a number', async () => {
    const { api } = renderDialer('/dialer', [number]);
    await userEvent.click(await screen.findByRole('button', { name: 'Call' }));
    expect(await screen.findByText('Phone number required')).toBeInTheDocument();
    expect(screen.getByText('Please enter a phone number to call')).toBeInTheDocument();
    expect(api.requests.some((request) => request.method === 'POST')).toBe(false);
  });

  it('says when the voice changer is on', async () => {
    window.localStorage.setItem('voiceSettings', JSON.stringify({ voiceType: 'middleEastern', pitch: 1.2, speed: 1 }));
    renderDialer('/dialer', [number], [], 'platinum');
    expect(await screen.findByText('Voice changer active: Middle Eastern Accent')).toBeInTheDocument();
  });

  it('says nothing of the voice changer when the plan leaves the call on the normal voice', async () => {
    window.localStorage.setItem('voiceSettings', JSON.stringify({ voiceType: 'african', pitch: 1.2, speed: 1 }));
    renderDialer('/dialer', [number], [], 'premium');
    expect(await screen.findByText('Voice changer active: African Accent')).toBeInTheDocument();
    // An accent beyond Premium (saved on a plan that has since ended): calls use the normal voice.
    window.localStorage.setItem('voiceSettings', JSON.stringify({ voiceType: 'middleEastern', pitch: 1.2, speed: 1 }));
    await userEvent.type(screen.getByLabelText('Phone number'), '4');
    expect(screen.queryByText(/Voice changer active/)).not.toBeInTheDocument();
  });

  it('names the voice preset of the contact whose number is typed, and gives the plan’s refusal for a preset beyond it', async () => {
    window.localStorage.setItem('voiceSettings', JSON.stringify({ voiceType: 'african', pitch: 1.2, speed: 1 }));
    const echo = { id: 'c1', name: 'Echo line', phoneNumber: '+14155550100', email: null, voice: { voiceType: 'normal', pitch: 1.5, speed: 1 } };
    const accent = { id: 'c2', name: 'Accent line', phoneNumber: '+14155550101', email: null, voice: { voiceType: 'chinese', pitch: 1, speed: 1 } };
    renderDialer('/dialer', [number], [], 'premium', [echo, accent]);
    expect(await screen.findByText('Voice changer active: African Accent')).toBeInTheDocument();

    // Typed as the user would, the number matches the contact's E.164 form as the server matches it.
    const input = screen.getByLabelText('Phone number');
    await userEvent.type(input, '(415) 555-0100');
    expect(await screen.findByText('Voice changer active: Normal Accent, pitch 1.50x, speed 1.00x (from contact Echo line)')).toBeInTheDocument();

    await userEvent.clear(input);
    await userEvent.type(input, '4155550101');
    expect(await screen.findByText('This accent needs Platinum')).toBeInTheDocument();
    expect(screen.queryByText(/Voice changer active/)).not.toBeInTheDocument();
  });

  it('shows history newest first with status, duration and an empty state', async () => {
    renderDialer('/dialer', [number]);
    await userEvent.click(await screen.findByRole('tab', { name: 'Call History' }));
    expect(await screen.findByText('No call history yet')).toBeInTheDocument();
  });

  it('lists calls with their status and duration', async () => {
    const call = {
      id: 'c1', direction: 'outbound', from: '+14155550123', to: '+14155550100', state: 'ended', outcome: 'completed', reason: null,
      startedAt: '2026-11-20T10:00:00.000Z', answeredAt: '2026-11-20T10:00:01.000Z', endedAt: '2026-11-20T10:01:06.000Z', durationSec: 65, mediaTransport: 'webrtc',
    };
    renderDialer('/dialer', [number], [call, { ...call, id: 'c2', outcome: 'no-answer', durationSec: 0 }]);
    await userEvent.click(await screen.findByRole('tab', { name: 'Call History' }));
    const items = await screen.findAllByRole('listitem');
    expect(items[0]).toHaveTextContent('+1 (415) 555-0100');
    expect(items[0]).toHaveTextContent('1:05');
    expect(items[0]).toHaveTextContent('Completed');
    expect(items[1]).toHaveTextContent('No answer');
    expect(screen.getAllByRole('button', { name: 'Redial +1 (415) 555-0100' })).toHaveLength(2);
  });
});

describe('placing a call', () => {
  it('says clearly when the microphone is refused, and places no call', async () => {
    const getUserMedia = vi.fn().mockRejectedValue(Object.assign(new Error('denied'), { name: 'NotAllowedError' }));
    Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: { getUserMedia } });
    const { api } = renderDialer('/dialer', [number]);
    await userEvent.type(await screen.findByLabelText('Phone number'), '4155550100');
    await userEvent.click(screen.getByRole('button', { name: 'Call' }));
    expect(await screen.findByText('Microphone access was refused. Allow the microphone for this site and try again.')).toBeInTheDocument();
    expect(api.requests.some((request) => request.method === 'POST')).toBe(false);
    expect(screen.queryByRole('region', { name: 'Active call' })).not.toBeInTheDocument();
  });
});
