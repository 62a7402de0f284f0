import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Navigate } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderRoutes } from '../../../../tests/support/render-web';
import { apiError, stubApi, type StubResponder } from '../../../../tests/support/web-fetch';
import { AuthPage } from './auth-page';
import { InProcessPasswordWorker } from '../../password-checker/password-worker.test-support';

const user = { id: 'u1', email: 'ada@example.com', fullName: 'Ada Lovelace' };
const signedOut = { 'GET /api/v1/session': apiError(401, 'unauthenticated', 'You are not signed in') };
// Strong enough for a new password (decision 014).
const STRONG_PASSWORD = 'tangerine orbit quarry 7';
// The password checker's chunk is imported when a password field is first used: more than waitFor's default.
const CHECKER_LOAD_MS = 10_000;

// Loaded and its dictionaries ranked once for the file, as a browser does once per visit, so that
// typing a password in a test does not also pay for that.
beforeAll(async () => {
  (await import('../../../common/password-strength')).preparePasswordChecker();
}, 60_000);
// jsdom has no Worker: the strength meter's checker answers from the test's thread, with the worker's own code.
beforeEach(() => vi.stubGlobal('Worker', InProcessPasswordWorker));

function renderAuth(path: string, answers: Record<string, StubResponder> = {}) {
  const api = stubApi({ ...signedOut, ...answers });
  vi.stubGlobal('fetch', api.fetchStub);
  const view = renderRoutes(
    [
      { path: '/auth', element: <AuthPage /> },
      { path: '/dialer', element: <h1>Dialer</h1> },
      { path: '/contacts', element: <h1>Phone Management</h1> },
      // What the guard does: the original location travels in the state.
      { path: '/from-contacts', element: <Navigate to="/auth" replace state={{ from: { pathname: '/contacts', search: '?q=ada', hash: '' } }} /> },
    ],
    path,
  );
  return { ...view, api };
}

async function logIn(email: string, password: string) {
  const form = screen.getByRole('tabpanel', { name: 'Login' });
  if (email) await userEvent.type(within(form).getByLabelText('Email'), email);
  if (password) await userEvent.type(within(form).getByLabelText('Password'), password);
  await userEvent.click(within(form).getByRole('button', { name: 'Log in' }));
}

afterEach(() => vi.unstubAllGlobals());

describe('AuthPage tabs', () => {
  it('opens on Login with labelled, required inputs, and a theme button', () => {
    renderAuth('/auth');
    expect(screen.getByRole('tab', { name: 'Login' })).toHaveAttribute('aria-selected', 'true');
    const form = screen.getByRole('tabpanel', { name: 'Login' });
    expect(within(form).getByLabelText('Email')).toHaveAttribute('type', 'email');
    expect(within(form).getByLabelText('Email')).toBeRequired();
    expect(within(form).getByLabelText('Password')).toBeRequired();
    expect(screen.getByRole('button', { name: 'Switch to dark mode' })).toBeInTheDocument();
  });

  it('opens Sign Up and Reset from ?tab=, and keeps the chosen tab in the URL', async () => {
    const { router } = renderAuth('/auth?tab=signup');
    expect(screen.getByRole('tab', { name: 'Sign Up' })).toHaveAttribute('aria-selected', 'true');
    expect(within(screen.getByRole('tabpanel', { name: 'Sign Up' })).getByLabelText('Full Name')).toBeRequired();

    await userEvent.click(screen.getByRole('tab', { name: 'Reset' }));
    expect(await screen.findByRole('tabpanel', { name: 'Reset' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('?tab=reset');
  });

  it('sends a signed-in visitor to /dialer', async () => {
    const { router } = renderAuth('/auth', { 'GET /api/v1/session': { status: 200, body: { user } } });
    expect(await screen.findByRole('heading', { name: 'Dialer' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dialer');
    expect(router.state.historyAction).toBe('REPLACE');
  });
});

describe('Login', () => {
  it('asks for both fields before sending anything', async () => {
    const { api } = renderAuth('/auth');
    await logIn('ada@example.com', '');
    expect(await screen.findByText('Missing information')).toBeInTheDocument();
    expect(screen.getByText('Please enter both email and password')).toBeInTheDocument();
    const password = screen.getByLabelText('Password');
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(password).toHaveAccessibleDescription('Password is required');
    expect(screen.getByLabelText('Email')).not.toHaveAttribute('aria-invalid');
    expect(api.sent('POST', '/api/v1/auth/sign-in')).toHaveLength(0);
  });

  it('says under each field what is wrong with it', async () => {
    const { api } = renderAuth('/auth');
    await logIn('', '');
    const email = screen.getByLabelText('Email');
    await waitFor(() => expect(email).toHaveAccessibleDescription('Email is required'));
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Password is required');
    expect(email).toHaveFocus();

    await logIn('ada@', 'correct horse');
    await waitFor(() => expect(email).toHaveAccessibleDescription('Enter a valid email address'));
    expect(screen.queryByText('Missing information')).not.toBeInTheDocument();
    expect(api.sent('POST', '/api/v1/auth/sign-in')).toHaveLength(0);
  });

  it("shows the server's reason when the login fails", async () => {
    renderAuth('/auth', { 'POST /api/v1/auth/sign-in': apiError(401, 'invalid_credentials', 'Invalid email or password') });
    await logIn('ada@example.com', 'wrong-password');
    expect(await screen.findByText('Login failed')).toBeInTheDocument();
    expect(screen.getByText('Invalid email or password')).toBeInTheDocument();
  });

  it('says how long to wait after too many failed attempts', async () => {
    const message = 'Too many failed sign-in attempts from this device. Try again in 14 minutes.';
    renderAuth('/auth', { 'POST /api/v1/auth/sign-in': apiError(429, 'rate_limited', message) });
    await logIn('ada@example.com', 'wrong-password');
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(await screen.findByText('Login failed')).toBeInTheDocument();
  });

  it('welcomes the user and goes to /dialer', async () => {
    const { router, api } = renderAuth('/auth', { 'POST /api/v1/auth/sign-in': { status: 200, body: { status: 'signed-in', user } } });
    await logIn('ada@example.com', 'correct horse');
    expect(await screen.findByRole('heading', { name: 'Dialer' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dialer');
    // The notice shows once its Toaster has loaded, which the first notice starts (components/notices.tsx).
    expect(await screen.findByText('Login successful')).toBeInTheDocument();
    expect(screen.getByText('Welcome back, Ada Lovelace!')).toBeInTheDocument();
    expect(api.sent('POST', '/api/v1/auth/sign-in')[0]?.body).toEqual({ email: 'ada@example.com', password: 'correct horse' });
  });

  it('returns to the page the guard stopped, when there is one', async () => {
    const { router } = renderAuth('/from-contacts', { 'POST /api/v1/auth/sign-in': { status: 200, body: { status: 'signed-in', user } } });
    await logIn('ada@example.com', 'correct horse');
    expect(await screen.findByRole('heading', { name: 'Phone Management' })).toBeInTheDocument();
    expect(router.state.location).toMatchObject({ pathname: '/contacts', search: '?q=ada' });
  });

  it('disables the button and shows progress while the request runs', async () => {
    renderAuth('/auth', { 'POST /api/v1/auth/sign-in': () => new Promise(() => {}) });
    await logIn('ada@example.com', 'correct horse');
    const button = screen.getByRole('button', { name: 'Log in' });
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('aria-busy', 'true');
  });

  it('asks for the authenticator code when the account has two-factor on', async () => {
    const { router, api } = renderAuth('/auth', {
      'POST /api/v1/auth/sign-in': { status: 200, body: { status: 'two-factor-required' } },
      'POST /api/v1/auth/two-factor': [
        apiError(401, 'invalid_code', 'That code is not valid. Check your authenticator app and try again.'),
        { status: 200, body: { status: 'signed-in', user } },
      ],
    });
    await logIn('ada@example.com', 'correct horse');

    expect(await screen.findByRole('heading', { name: 'Two-factor authentication' })).toBeInTheDocument();
    const code = screen.getByLabelText('Authentication code');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(screen.getByText('No access to your app? A backup code works too.')).toBeInTheDocument();

    await userEvent.type(code, '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('That code is not valid. Check your authenticator app and try again.')).toBeInTheDocument();
    expect(await screen.findByText('Login failed')).toBeInTheDocument();

    await userEvent.clear(code);
    await userEvent.type(code, '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('heading', { name: 'Dialer' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dialer');
    expect(api.sent('POST', '/api/v1/auth/two-factor').map((request) => request.body)).toEqual([{ code: '000000' }, { code: '123456' }]);
  });

  it('says how long to wait after too many wrong codes, staying on the code step', async () => {
    const message = 'Too many wrong codes for this account. Try again in 15 minutes.';
    renderAuth('/auth', {
      'POST /api/v1/auth/sign-in': { status: 200, body: { status: 'two-factor-required' } },
      'POST /api/v1/auth/two-factor': apiError(429, 'rate_limited', message),
    });
    await logIn('ada@example.com', 'correct horse');
    await userEvent.type(await screen.findByLabelText('Authentication code'), '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Two-factor authentication' })).toBeInTheDocument();
  });

  it('goes back to the password step once the pending sign-in has ended', async () => {
    const message = 'Too many wrong codes for this sign-in. Please log in again.';
    renderAuth('/auth', {
      'POST /api/v1/auth/sign-in': { status: 200, body: { status: 'two-factor-required' } },
      'POST /api/v1/auth/two-factor': apiError(401, 'two_factor_expired', message),
    });
    await logIn('ada@example.com', 'correct horse');
    await userEvent.type(await screen.findByLabelText('Authentication code'), '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Log in' })).toBeInTheDocument();
  });

  it('lets a backup code be typed, and goes back to the password step', async () => {
    renderAuth('/auth', { 'POST /api/v1/auth/sign-in': { status: 200, body: { status: 'two-factor-required' } } });
    await logIn('ada@example.com', 'correct horse');
    await userEvent.click(await screen.findByRole('button', { name: 'Use a backup code' }));
    expect(screen.getByLabelText('Authentication code')).toHaveAttribute('inputmode', 'text');

    await userEvent.click(screen.getByRole('button', { name: 'Back to Login' }));
    expect(screen.getByRole('button', { name: 'Log in' })).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
  });
});

describe('Sign Up', () => {
  async function fillSignUp({ fullName, email, password }: { fullName: string; email: string; password: string }) {
    const form = screen.getByRole('tabpanel', { name: 'Sign Up' });
    if (fullName) await userEvent.type(within(form).getByLabelText('Full Name'), fullName);
    if (email) await userEvent.type(within(form).getByLabelText('Email'), email);
    if (password) await userEvent.type(within(form).getByLabelText('Password'), password);
    await userEvent.click(within(form).getByRole('button', { name: 'Create account' }));
  }

  it('asks for every field', async () => {
    const { api } = renderAuth('/auth?tab=signup');
    await fillSignUp({ fullName: '', email: '', password: '' });
    expect(await screen.findByText('Missing information')).toBeInTheDocument();
    expect(screen.getByText('Please fill in all required fields')).toBeInTheDocument();
    const form = screen.getByRole('tabpanel', { name: 'Sign Up' });
    expect(within(form).getByLabelText('Full Name')).toHaveAccessibleDescription('Full name is required');
    expect(within(form).getByLabelText('Email')).toHaveAccessibleDescription('Email is required');
    expect(within(form).getByLabelText('Password')).toHaveAttribute('aria-invalid', 'true');
    expect(within(form).getByLabelText('Full Name')).toHaveFocus();
    expect(api.sent('POST', '/api/v1/auth/sign-up')).toHaveLength(0);
  });

  it('says the account is created and switches to Login with the email filled in', async () => {
    const { router, api } = renderAuth('/auth?tab=signup', { 'POST /api/v1/auth/sign-up': { status: 201, body: { emailVerificationRequired: true } } });
    await fillSignUp({ fullName: 'Ada Lovelace', email: 'ada@example.com', password: STRONG_PASSWORD });

    expect(await screen.findByText('Account created')).toBeInTheDocument();
    expect(screen.getByText('Please check your email to confirm your account')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('tab', { name: 'Login' })).toHaveAttribute('aria-selected', 'true'));
    expect(router.state.location.search).toBe('?tab=login');
    expect(within(screen.getByRole('tabpanel', { name: 'Login' })).getByLabelText('Email')).toHaveValue('ada@example.com');
    expect(api.sent('POST', '/api/v1/auth/sign-up')[0]?.body).toEqual({ fullName: 'Ada Lovelace', email: 'ada@example.com', password: STRONG_PASSWORD });
  });

  it("shows the server's reason when the account cannot be created", async () => {
    renderAuth('/auth?tab=signup', { 'POST /api/v1/auth/sign-up': apiError(422, 'user_exists', 'An account with this email already exists') });
    await fillSignUp({ fullName: 'Ada Lovelace', email: 'ada@example.com', password: STRONG_PASSWORD });
    expect(await screen.findByText('Error creating account')).toBeInTheDocument();
    expect(screen.getByText('An account with this email already exists')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Sign Up' })).toHaveAttribute('aria-selected', 'true');
  });

  it('refuses a short password before sending it, saying why under the field', async () => {
    const { api } = renderAuth('/auth?tab=signup');
    await fillSignUp({ fullName: 'Ada Lovelace', email: 'ada@example.com', password: 'short' });
    const password = within(screen.getByRole('tabpanel', { name: 'Sign Up' })).getByLabelText('Password');
    expect(await screen.findByRole('alert')).toHaveTextContent('Password must be at least 10 characters');
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(password).toHaveAccessibleDescription(expect.stringContaining('Password must be at least 10 characters'));
    expect(api.sent('POST', '/api/v1/auth/sign-up')).toHaveLength(0);
  });

  it('judges the password under the field as it is typed, and refuses a guessable one before sending it', async () => {
    const { api } = renderAuth('/auth?tab=signup', { 'POST /api/v1/auth/sign-up': { status: 201, body: { emailVerificationRequired: true } } });
    const form = screen.getByRole('tabpanel', { name: 'Sign Up' });
    const password = within(form).getByLabelText('Password');
    expect(password).toHaveAccessibleDescription('At least 10 characters, hard to guess.');

    await userEvent.type(within(form).getByLabelText('Full Name'), 'Ada Lovelace');
    await userEvent.type(within(form).getByLabelText('Email'), 'ada@example.com');
    await userEvent.type(password, 'ada lovelace 1815');
    const personal = 'Too easy to guess. There should not be any personal or page related data. Add more words that are less common.';
    await waitFor(() => expect(password).toHaveAccessibleDescription(personal), { timeout: CHECKER_LOAD_MS });
    await userEvent.click(within(form).getByRole('button', { name: 'Create account' }));
    // The verdict becomes the field's error, said once.
    await waitFor(() => expect(password).toHaveAttribute('aria-invalid', 'true'));
    expect(password).toHaveAccessibleDescription(personal);
    expect(within(form).getByRole('alert')).toHaveTextContent(personal);
    expect(api.sent('POST', '/api/v1/auth/sign-up')).toHaveLength(0);

    await userEvent.clear(password);
    await userEvent.type(password, STRONG_PASSWORD);
    await waitFor(() => expect(password).toHaveAccessibleDescription('Very strong password.'), { timeout: CHECKER_LOAD_MS });
    await userEvent.click(within(form).getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Account created')).toBeInTheDocument();
  }, 30_000);
});

describe('Reset', () => {
  async function requestReset(email: string) {
    const form = screen.getByRole('tabpanel', { name: 'Reset' });
    if (email) await userEvent.type(within(form).getByLabelText('Email'), email);
    await userEvent.click(within(form).getByRole('button', { name: 'Send reset link' }));
  }

  it('asks for the email', async () => {
    const { api } = renderAuth('/auth?tab=reset');
    await requestReset('');
    expect(await screen.findByText('Email required')).toBeInTheDocument();
    expect(screen.getByText('Please enter your email address')).toBeInTheDocument();
    expect(api.sent('POST', '/api/v1/auth/password-reset')).toHaveLength(0);
  });

  it('says the link was sent, with a way back to Login', async () => {
    const { api } = renderAuth('/auth?tab=reset', { 'POST /api/v1/auth/password-reset': { status: 200, body: { ok: true } } });
    await requestReset('ada@example.com');
    expect(await screen.findByText('Password reset email sent')).toBeInTheDocument();
    expect(screen.getByText('Reset link has been sent to your email address.')).toBeInTheDocument();
    expect(api.sent('POST', '/api/v1/auth/password-reset')[0]?.body).toEqual({ email: 'ada@example.com' });

    await userEvent.click(screen.getByRole('button', { name: 'Back to Login' }));
    await waitFor(() => expect(screen.getByRole('tab', { name: 'Login' })).toHaveAttribute('aria-selected', 'true'));
  });

  it('says so when the email cannot be sent', async () => {
    renderAuth('/auth?tab=reset', { 'POST /api/v1/auth/password-reset': apiError(500, 'internal', 'Something went wrong') });
    await requestReset('ada@example.com');
    expect(await screen.findByText('Failed to send password reset email')).toBeInTheDocument();
    expect(await screen.findByText('Error')).toBeInTheDocument();
  });
});

describe('Set a new password (?tab=updatePassword)', () => {
  async function setPassword(newPassword: string, confirmation: string) {
    await userEvent.type(screen.getByLabelText('New password'), newPassword);
    await userEvent.type(screen.getByLabelText('Confirm password'), confirmation);
    await userEvent.click(screen.getByRole('button', { name: 'Update password' }));
  }

  it('sets the password from the link and switches to Login', async () => {
    const { router, api } = renderAuth('/auth?tab=updatePassword&token=tok_123', {
      'POST /api/v1/auth/password-reset/confirm': { status: 200, body: { ok: true } },
    });
    expect(screen.getByRole('heading', { name: 'Set a new password' })).toBeInTheDocument();

    await setPassword(STRONG_PASSWORD, `${STRONG_PASSWORD} 2`);
    expect(await screen.findByRole('alert')).toHaveTextContent('The new passwords do not match.');
    expect(screen.getByLabelText('Confirm password')).toHaveAccessibleDescription('The new passwords do not match.');
    expect(api.sent('POST', '/api/v1/auth/password-reset/confirm')).toHaveLength(0);

    await userEvent.clear(screen.getByLabelText('New password'));
    await userEvent.clear(screen.getByLabelText('Confirm password'));
    await setPassword(STRONG_PASSWORD, STRONG_PASSWORD);
    expect(await screen.findByText('Password updated')).toBeInTheDocument();
    expect(api.sent('POST', '/api/v1/auth/password-reset/confirm')[0]?.body).toEqual({ token: 'tok_123', newPassword: STRONG_PASSWORD });
    expect(await screen.findByRole('tab', { name: 'Login' })).toHaveAttribute('aria-selected', 'true');
    expect(router.state.location.search).toBe('?tab=login');
  });

  it('says when the link is invalid or has expired, and offers a new one', async () => {
    renderAuth('/auth?tab=updatePassword&token=tok_old', {
      'POST /api/v1/auth/password-reset/confirm': apiError(400, 'invalid_token', 'This reset link is invalid or has expired', 'token'),
    });
    await setPassword(STRONG_PASSWORD, STRONG_PASSWORD);
    expect(await screen.findByRole('alert')).toHaveTextContent('This reset link is invalid or has expired');

    await userEvent.click(screen.getByRole('button', { name: 'Request a new link' }));
    expect(await screen.findByRole('tab', { name: 'Reset' })).toHaveAttribute('aria-selected', 'true');
  });

  it('judges the new password under the field as it is typed, and refuses a guessable one before sending it', async () => {
    const { api } = renderAuth('/auth?tab=updatePassword&token=tok_123');
    const newPassword = screen.getByLabelText('New password');
    await userEvent.type(newPassword, 'password123');
    const common = 'Too easy to guess. This is a commonly used password. Add more words that are less common.';
    await waitFor(() => expect(newPassword).toHaveAccessibleDescription(common), { timeout: CHECKER_LOAD_MS });
    await userEvent.type(screen.getByLabelText('Confirm password'), 'password123');
    await userEvent.click(screen.getByRole('button', { name: 'Update password' }));
    await waitFor(() => expect(newPassword).toHaveAttribute('aria-invalid', 'true'));
    expect(newPassword).toHaveAccessibleDescription(common);
    expect(api.sent('POST', '/api/v1/auth/password-reset/confirm')).toHaveLength(0);
  }, 30_000);

  it('says so at once when the link has no token', () => {
    renderAuth('/auth?tab=updatePassword');
    expect(screen.getByRole('alert')).toHaveTextContent('This reset link is invalid or has expired');
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
  });
});

describe('theme', () => {
  it('switches the theme without asking the server when signed out', async () => {
    const { api } = renderAuth('/auth');
    await waitFor(() => expect(api.sent('GET', '/api/v1/session')).toHaveLength(1));
    await userEvent.click(screen.getByRole('button', { name: 'Switch to dark mode' }));
    expect(document.documentElement).toHaveClass('dark');
    expect(api.requests.filter((request) => request.url.includes('preferences'))).toHaveLength(0);
  });
});
