import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Account } from '../../../common/api/account';
import type { Preferences } from '../../../common/api/preferences';
import { renderApp, renderRoutes } from '../../../../tests/support/render-web';
import { apiError, stubApi, type StubResponder } from '../../../../tests/support/web-fetch';
import { SettingsPage } from './settings-page';
import { InProcessPasswordWorker } from '../../password-checker/password-worker.test-support';

const account: Account = {
  id: 'u1',
  fullName: 'Ada Lovelace',
  email: 'ada@example.com',
  emailVerified: true,
  phone: '+14155550100',
  twoFactorEnabled: false,
};

// Strong enough for a new password (decision 014).
const STRONG_PASSWORD = 'tangerine orbit quarry 7';

const preferences: Preferences = { darkMode: false, notifications: true, callHistory: true, dataUsage: false, autoAnswer: false, recordCalls: false };

function renderSettings(path: string, answers: Record<string, StubResponder> = {}) {
  const api = stubApi({
    'GET /api/v1/account': { status: 200, body: account },
    'GET /api/v1/preferences': { status: 200, body: preferences },
    'GET /api/v1/subscription': { status: 200, body: { tier: 'free', isActive: false, expiryDate: null } },
    'GET /api/v1/subscription/minutes': { status: 200, body: { tier: 'free', monthlyMinutes: 10, usedSeconds: 0, secondsLeft: 600, resetsAt: '2026-12-01T00:00:00.000Z' } },
    ...answers,
  });
  vi.stubGlobal('fetch', api.fetchStub);
  const view = renderRoutes([{ path: '/settings', element: <SettingsPage /> }], path);
  return { ...view, api };
}

afterEach(() => vi.unstubAllGlobals());

// Loaded and its dictionaries ranked once for the file, as a browser does once per visit, so that
// typing a password in a test does not also pay for that.
beforeAll(async () => {
  (await import('../../../common/password-strength')).preparePasswordChecker();
}, 60_000);
// jsdom has no Worker: the strength meter's checker answers from the test's thread, with the worker's own code.
beforeEach(() => vi.stubGlobal('Worker', InProcessPasswordWorker));

describe('Settings tabs', () => {
  it('opens on Subscription by default', () => {
    renderSettings('/settings');
    expect(screen.getByRole('heading', { level: 1, name: 'Settings' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Subscription' })).toHaveAttribute('aria-selected', 'true');
    expect(within(screen.getByRole('tabpanel', { name: 'Subscription' })).getByRole('heading', { name: 'Subscription' })).toBeInTheDocument();
  });

  it.each([
    ['subscription', 'Subscription'],
    ['account', 'Account'],
    ['preferences', 'Preferences'],
  ])('opens the tab named by ?tab=%s', (tab, name) => {
    renderSettings(`/settings?tab=${tab}`);
    expect(screen.getByRole('tab', { name })).toHaveAttribute('aria-selected', 'true');
  });

  it('keeps the chosen tab in the URL, and other parameters with it', async () => {
    const { router } = renderSettings('/settings?tab=account&from=mail');
    await userEvent.click(screen.getByRole('tab', { name: 'Preferences' }));
    await waitFor(() => expect(router.state.location.search).toBe('?tab=preferences&from=mail'));
    expect(await screen.findByRole('switch', { name: 'Dark Mode' })).toBeInTheDocument();
  });
});

describe('Account tab', () => {
  it('fills the form from the account and sends only what changed', async () => {
    const saved = { ...account, phone: '+442079460958' };
    const { api } = renderSettings('/settings?tab=account', {
      'PATCH /api/v1/account': { status: 200, body: { account: saved, pendingEmail: null } },
    });
    const phone = await screen.findByLabelText('Phone Number');
    expect(screen.getByLabelText('Full Name')).toHaveValue('Ada Lovelace');
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
    expect(phone).toHaveValue('+14155550100');

    await userEvent.clear(phone);
    await userEvent.type(phone, '+44 20 7946 0958');
    await userEvent.click(screen.getByRole('button', { name: 'Save Account Settings' }));

    expect(await screen.findByText('Account updated')).toBeInTheDocument();
    expect(api.sent('PATCH', '/api/v1/account').map((request) => request.body)).toEqual([{ phone: '+44 20 7946 0958' }]);
    expect(phone).toHaveValue('+442079460958');
  });

  it('clears the phone number with an empty field', async () => {
    const { api } = renderSettings('/settings?tab=account', {
      'PATCH /api/v1/account': { status: 200, body: { account: { ...account, phone: null }, pendingEmail: null } },
    });
    await userEvent.clear(await screen.findByLabelText('Phone Number'));
    await userEvent.click(screen.getByRole('button', { name: 'Save Account Settings' }));
    expect(await screen.findByText('Account updated')).toBeInTheDocument();
    expect(api.sent('PATCH', '/api/v1/account')[0]?.body).toEqual({ phone: '' });
  });

  it('says where the link confirming a new email address went', async () => {
    const { api } = renderSettings('/settings?tab=account', {
      'PATCH /api/v1/account': { status: 200, body: { account, pendingEmail: 'ada@new.example' } },
    });
    const email = await screen.findByLabelText('Email');
    await userEvent.clear(email);
    await userEvent.type(email, 'ada@new.example');
    await userEvent.click(screen.getByRole('button', { name: 'Save Account Settings' }));

    expect(await screen.findByText('Account updated')).toBeInTheDocument();
    expect(api.sent('PATCH', '/api/v1/account')[0]?.body).toEqual({ email: 'ada@new.example' });
    // Said in the notice and, to stay, beside the field.
    expect(screen.getAllByText('Check ada@new.example for a link to confirm your new email address.')).toHaveLength(2);
    expect(email).toHaveAccessibleDescription('Check ada@new.example for a link to confirm your new email address.');
    // The current address stays until the new one is confirmed.
    expect(email).toHaveValue('ada@example.com');
  });

  it('says what is wrong under the field before sending anything', async () => {
    const { api } = renderSettings('/settings?tab=account');
    const phone = await screen.findByLabelText('Phone Number');
    await userEvent.clear(phone);
    await userEvent.type(phone, '12');
    await userEvent.click(screen.getByRole('button', { name: 'Save Account Settings' }));

    const message = 'Enter a valid phone number with its country code, e.g. +1 415 555 0100';
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(phone).toHaveAttribute('aria-invalid', 'true');
    expect(phone).toHaveAccessibleDescription(`With its country code. Leave it empty to remove your number. ${message}`);
    expect(api.sent('PATCH', '/api/v1/account')).toHaveLength(0);

    // Fixing the value clears its error as it is typed.
    await userEvent.clear(phone);
    expect(phone).not.toHaveAttribute('aria-invalid');
  });

  it("shows the server's reason beside the field it names, and other failures above the button", async () => {
    const taken = 'That email address belongs to another account';
    renderSettings('/settings?tab=account', {
      'PATCH /api/v1/account': [apiError(400, 'invalid_input', `email: ${taken}`, 'email'), apiError(503, 'database_unavailable', 'The database is unavailable right now.')],
    });
    const email = await screen.findByLabelText('Email');
    await userEvent.clear(email);
    await userEvent.type(email, 'grace@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Save Account Settings' }));

    await waitFor(() => expect(email).toHaveAttribute('aria-invalid', 'true'));
    expect(email).toHaveAccessibleDescription(taken);
    expect(screen.queryByText('Failed to update account settings.')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Save Account Settings' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to update account settings.The database is unavailable right now.');
    expect(email).not.toHaveAttribute('aria-invalid');
  });

  it('sends nothing when nothing changed', async () => {
    const { api } = renderSettings('/settings?tab=account');
    await userEvent.click(await screen.findByRole('button', { name: 'Save Account Settings' }));
    expect(await screen.findByText('No changes to save')).toBeInTheDocument();
    expect(api.sent('PATCH', '/api/v1/account')).toHaveLength(0);
  });

  it('changes the password in a dialog', async () => {
    const { api } = renderSettings('/settings?tab=account', {
      'POST /api/v1/account/password': [apiError(400, 'invalid_password', 'Current password is incorrect'), { status: 200, body: { ok: true } }],
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Change Password' }));
    const dialog = screen.getByRole('dialog', { name: 'Change password' });
    expect(dialog).toHaveTextContent('every other device logged in to your account is signed out');

    await userEvent.type(within(dialog).getByLabelText('Current password'), 'old password');
    await userEvent.type(within(dialog).getByLabelText('New password'), STRONG_PASSWORD);
    await userEvent.type(within(dialog).getByLabelText('Confirm new password'), `${STRONG_PASSWORD} 2`);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update password' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('The new passwords do not match.');
    expect(api.sent('POST', '/api/v1/account/password')).toHaveLength(0);

    await userEvent.clear(within(dialog).getByLabelText('Confirm new password'));
    await userEvent.type(within(dialog).getByLabelText('Confirm new password'), STRONG_PASSWORD);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update password' }));
    expect(await within(dialog).findByText('Current password is incorrect')).toBeInTheDocument();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Update password' }));
    expect(await screen.findByText('Password changed')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.sent('POST', '/api/v1/account/password')[1]?.body).toEqual({ currentPassword: 'old password', newPassword: STRONG_PASSWORD });
  });

  it('judges the new password under the field as it is typed, the account’s own name included, and refuses a guessable one', async () => {
    const { api } = renderSettings('/settings?tab=account');
    await userEvent.click(await screen.findByRole('button', { name: 'Change Password' }));
    const dialog = screen.getByRole('dialog', { name: 'Change password' });
    const newPassword = within(dialog).getByLabelText('New password');
    expect(newPassword).toHaveAccessibleDescription('At least 10 characters, hard to guess.');

    await userEvent.type(within(dialog).getByLabelText('Current password'), 'old password');
    await userEvent.type(newPassword, 'ada lovelace 1815');
    const personal = 'Too easy to guess. There should not be any personal or page related data. Add more words that are less common.';
    await waitFor(() => expect(newPassword).toHaveAccessibleDescription(personal), { timeout: 10_000 });
    await userEvent.type(within(dialog).getByLabelText('Confirm new password'), 'ada lovelace 1815');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update password' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(personal);
    expect(api.sent('POST', '/api/v1/account/password')).toHaveLength(0);
  }, 30_000);

  it('turns two-factor authentication on: password, QR code and backup codes, then a code', async () => {
    const { api } = renderSettings('/settings?tab=account', {
      'POST /api/v1/account/two-factor/enable': {
        status: 200,
        body: {
          totpUri: 'otpauth://totp/Voxline:ada%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Voxline',
          qrCode: 'data:image/svg+xml;base64,PHN2Zy8+',
          backupCodes: ['aaaaa-11111', 'bbbbb-22222'],
        },
      },
      'POST /api/v1/account/two-factor/confirm': { status: 200, body: { ...account, twoFactorEnabled: true } },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Enable Two-Factor Authentication' }));
    const dialog = screen.getByRole('dialog', { name: 'Enable two-factor authentication' });

    await userEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Password is required');
    expect(api.sent('POST', '/api/v1/account/two-factor/enable')).toHaveLength(0);
    await userEvent.type(within(dialog).getByLabelText('Password'), 'correct horse');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));

    expect(await within(dialog).findByRole('img', { name: 'QR code for your authenticator app' })).toHaveAttribute('src', 'data:image/svg+xml;base64,PHN2Zy8+');
    expect(within(dialog).getByText('JBSWY3DPEHPK3PXP')).toBeInTheDocument();
    const codes = within(dialog).getByRole('list', { name: 'Backup codes' });
    expect(within(codes).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['aaaaa-11111', 'bbbbb-22222']);
    expect(dialog).toHaveTextContent('Keep them somewhere safe');

    await userEvent.type(within(dialog).getByLabelText('Authentication code'), '123456');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Verify and enable' }));

    expect(await screen.findByText('Two-factor authentication enabled')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // Back to screen readers once the closed dialog's effects have cleaned up.
    expect(await screen.findByRole('button', { name: 'Disable Two-Factor Authentication' })).toBeInTheDocument();
    expect(api.sent('POST', '/api/v1/account/two-factor/enable')[0]?.body).toEqual({ password: 'correct horse' });
    expect(api.sent('POST', '/api/v1/account/two-factor/confirm')[0]?.body).toEqual({ code: '123456' });
  });

  it('turns two-factor authentication off with the password', async () => {
    const { api } = renderSettings('/settings?tab=account', {
      'GET /api/v1/account': { status: 200, body: { ...account, twoFactorEnabled: true } },
      'POST /api/v1/account/two-factor/disable': [apiError(400, 'invalid_password', 'Password is incorrect'), { status: 200, body: account }],
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Disable Two-Factor Authentication' }));
    const dialog = screen.getByRole('dialog', { name: 'Disable two-factor authentication' });
    await userEvent.type(within(dialog).getByLabelText('Password'), 'wrong');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Disable' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Password is incorrect');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Disable' }));
    expect(await screen.findByText('Two-factor authentication disabled')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Enable Two-Factor Authentication' })).toBeInTheDocument();
    expect(api.sent('POST', '/api/v1/account/two-factor/disable')[1]?.body).toEqual({ password: 'wrong' });
  });
});

describe('Preferences tab', () => {
  it('shows the saved values, saves the switches and applies Dark Mode to the theme', async () => {
    const { api } = renderSettings('/settings?tab=preferences', {
      'PATCH /api/v1/preferences': ({ body }) => ({ status: 200, body: { ...preferences, ...(body as Partial<Preferences>) } }),
    });
    const darkMode = await screen.findByRole('switch', { name: 'Dark Mode' });
    expect(darkMode).not.toBeChecked();
    expect(screen.getByRole('switch', { name: 'Save Call History' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Auto-Answer Incoming Calls' })).not.toBeChecked();
    expect(screen.getByRole('switch', { name: 'Enable Notifications' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Low Data Mode' })).not.toBeChecked();
    expect(screen.getByRole('switch', { name: 'Record calls' })).not.toBeChecked();
    expect(screen.getByRole('switch', { name: 'Record calls' })).toHaveAccessibleDescription(/Premium and Platinum/);
    expect(document.documentElement).not.toHaveClass('dark');

    await userEvent.click(darkMode);
    await userEvent.click(screen.getByRole('switch', { name: 'Low Data Mode' }));
    await userEvent.click(screen.getByRole('switch', { name: 'Record calls' }));
    // Nothing applies before it is saved.
    expect(document.documentElement).not.toHaveClass('dark');
    await userEvent.click(screen.getByRole('button', { name: 'Save Preferences' }));

    expect(await screen.findByText('Preferences updated')).toBeInTheDocument();
    expect(api.sent('PATCH', '/api/v1/preferences')[0]?.body).toEqual({ ...preferences, darkMode: true, dataUsage: true, recordCalls: true });
    expect(document.documentElement).toHaveClass('dark');
    expect(window.localStorage.getItem('theme')).toBe('dark');

    await userEvent.click(darkMode);
    await userEvent.click(screen.getByRole('button', { name: 'Save Preferences' }));
    await waitFor(() => expect(document.documentElement).toHaveClass('light'));
    expect(document.documentElement).not.toHaveClass('dark');
  });

  it('says when the preferences cannot be saved, and leaves the theme alone', async () => {
    renderSettings('/settings?tab=preferences', { 'PATCH /api/v1/preferences': apiError(503, 'database_unavailable', 'The database is unavailable right now.') });
    await userEvent.click(await screen.findByRole('switch', { name: 'Dark Mode' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save Preferences' }));
    expect(await screen.findByText('Failed to update preferences.')).toBeInTheDocument();
    expect(screen.getByText('The database is unavailable right now.')).toBeInTheDocument();
    expect(document.documentElement).not.toHaveClass('dark');
  });
});

describe('in the app', () => {
  it("gives a signed-in user their saved Dark Mode as the theme, loading the preferences once", async () => {
    window.localStorage.setItem('theme', 'light');
    const api = stubApi({
      'GET /api/v1/session': { status: 200, body: { user: { id: 'u1', email: 'ada@example.com', fullName: 'Ada Lovelace' } } },
      'GET /api/v1/preferences': { status: 200, body: { ...preferences, darkMode: true } },
    });
    vi.stubGlobal('fetch', api.fetchStub);
    renderApp('/settings?tab=preferences');

    // The signed-in frame and the page are lazy routes: their first import takes over a second when other files load theirs at once.
    expect(await screen.findByRole('switch', { name: 'Dark Mode' }, { timeout: 5_000 })).toBeChecked();
    await waitFor(() => expect(document.documentElement).toHaveClass('dark'));
    expect(api.sent('GET', '/api/v1/preferences')).toHaveLength(1);
  });
});
