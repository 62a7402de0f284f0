import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { signInBodySchema, type SignInBody } from '../../common/api/auth';
import { FormAlert } from '../components/form-alert';
import { FormInput } from '../components/form-input';
import { PendingButton } from '../components/pending-button';
import { ApiError } from './api-client';
import { reportMissing, submitHandler, useZodForm } from './zod-form';

/** The smallest form built the way every form is: the shared schema, bound fields, form-level alerts, a pending button. */
function SignInHarness({ send }: { send: (body: SignInBody) => Promise<unknown> }) {
  const form = useZodForm(signInBodySchema, { defaultValues: { email: '', password: '' } });
  const submit = submitHandler(form, send, reportMissing(form, ['email', 'password'], 'Please enter both email and password'));
  const { errors, isSubmitting } = form.formState;
  return (
    <form noValidate onSubmit={submit}>
      <FormInput form={form} name="email" id="email" label="Email" type="email" hint="The address you signed up with." />
      <FormInput form={form} name="password" id="password" label="Password" type="password" />
      <FormAlert title="Missing information" message={errors.root?.missing?.message} />
      <FormAlert title="Login failed" message={errors.root?.server?.message} />
      <PendingButton type="submit" pending={isSubmitting}>
        Log in
      </PendingButton>
    </form>
  );
}

function renderHarness(send: (body: SignInBody) => Promise<unknown> = async () => undefined) {
  const sent = vi.fn(send);
  render(<SignInHarness send={sent} />);
  return { sent, email: screen.getByLabelText('Email'), password: screen.getByLabelText('Password'), submit: () => userEvent.click(screen.getByRole('button', { name: 'Log in' })) };
}

describe('a form built with useZodForm', () => {
  it("shows each field's error under it, announced and read with the field, focuses the first, and sends nothing", async () => {
    const { sent, email, password, submit } = renderHarness();
    await userEvent.type(email, 'ada@');
    await submit();

    await waitFor(() => expect(email).toHaveAttribute('aria-invalid', 'true'));
    expect(email).toHaveAccessibleDescription('The address you signed up with. Enter a valid email address');
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(password).toHaveAccessibleDescription('Password is required');
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual([
      'Enter a valid email address',
      'Password is required',
      'Missing informationPlease enter both email and password',
    ]);
    expect(email).toHaveFocus();
    expect(sent).not.toHaveBeenCalled();
  });

  it('clears a field’s error as the field is corrected, and sends the values as typed', async () => {
    const { sent, email, password, submit } = renderHarness();
    await userEvent.type(email, 'ada@example.com');
    await submit();
    await waitFor(() => expect(password).toHaveAttribute('aria-invalid', 'true'));

    await userEvent.type(password, 'correct horse');
    expect(password).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByText('Password is required')).not.toBeInTheDocument();
    await submit();
    await waitFor(() => expect(sent).toHaveBeenCalledWith({ email: 'ada@example.com', password: 'correct horse' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('puts the server’s error on the field it names, without the field name in front, and focuses it', async () => {
    const { email, password, submit } = renderHarness(() =>
      Promise.reject(new ApiError(400, 'invalid_input', 'password: Password is too long', 'password')),
    );
    await userEvent.type(email, 'ada@example.com');
    await userEvent.type(password, 'correct horse');
    await submit();

    await waitFor(() => expect(password).toHaveAttribute('aria-invalid', 'true'));
    expect(password).toHaveAccessibleDescription('Password is too long');
    expect(screen.getByRole('alert')).toHaveTextContent(/^Password is too long$/);
    expect(password).toHaveFocus();
    expect(email).not.toHaveAttribute('aria-invalid');
  });

  it('shows any other failure above the button, with the reference for support, until the next submit', async () => {
    const failures = [
      new ApiError(401, 'invalid_credentials', 'Invalid email or password', undefined, '3f2a9c1e-0000-4000-8000-000000000000'),
      new ApiError(400, 'invalid_input', 'That field is not on this form', 'captcha'),
    ];
    const { email, password, submit } = renderHarness(() => Promise.reject(failures.shift() ?? new Error('no more failures')));
    await userEvent.type(email, 'ada@example.com');
    await userEvent.type(password, 'wrong password');
    await submit();
    expect(await screen.findByRole('alert')).toHaveTextContent('Login failedInvalid email or password (Reference: 3f2a9c1e)');
    expect(password).not.toHaveAttribute('aria-invalid');

    // A field this form does not have is the form's error too.
    await submit();
    expect(await screen.findByText('That field is not on this form')).toBeInTheDocument();
    expect(screen.getAllByRole('alert')).toHaveLength(1);
  });

  it('keeps the submit button pending, with its name, while the request is in flight', async () => {
    let answer: () => void = () => undefined;
    const { email, password, submit } = renderHarness(() => new Promise<void>((resolve) => (answer = resolve)));
    await userEvent.type(email, 'ada@example.com');
    await userEvent.type(password, 'correct horse');
    await submit();

    const button = screen.getByRole('button', { name: 'Log in' });
    await waitFor(() => expect(button).toBeDisabled());
    expect(button).toHaveAttribute('aria-busy', 'true');
    expect(button.querySelector('svg.animate-spin')).not.toBeNull();

    answer();
    await waitFor(() => expect(button).toBeEnabled());
    expect(button).toHaveAttribute('aria-busy', 'false');
    expect(button.querySelector('svg.animate-spin')).toBeNull();
  });
});
