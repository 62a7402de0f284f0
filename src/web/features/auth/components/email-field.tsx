import { FormField } from '../../../components/form-field';

/** The email field the login, sign-up and reset forms share, so that the address carries over between them. */
export function EmailField({ id, email, onEmailChange }: { id: string; email: string; onEmailChange: (email: string) => void }) {
  return (
    <FormField
      id={id}
      label="Email"
      type="email"
      autoComplete="email"
      required
      value={email}
      onChange={(event) => onEmailChange(event.target.value)}
      placeholder="you@example.com"
    />
  );
}
