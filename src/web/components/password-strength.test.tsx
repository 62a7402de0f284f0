import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InProcessPasswordWorker, UnloadableWorker } from '../password-checker/password-worker.test-support';
import { PasswordStrengthFeedback, usePasswordStrength } from './password-strength';

function Meter() {
  const [password, setPassword] = useState('');
  const strength = usePasswordStrength(password, 'Ada Lovelace', 'ada@example.com');
  const [checked, setChecked] = useState('');
  return (
    <>
      <label htmlFor="password">Password</label>
      <input id="password" value={password} onFocus={strength.prepare} onChange={(event) => setPassword(event.target.value)} aria-describedby="strength" />
      <PasswordStrengthFeedback id="strength" verdict={strength.verdict} pending={strength.pending} />
      <button onClick={() => void strength.check().then((verdict) => setChecked(verdict?.message ?? 'no verdict'))}>Check</button>
      <output>{checked}</output>
    </>
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('the password strength meter', () => {
  it("is busy until the worker answers, then says the verdict, the person's own words included", async () => {
    vi.stubGlobal('Worker', InProcessPasswordWorker);
    render(<Meter />);
    const field = screen.getByLabelText('Password');
    expect(field).toHaveAccessibleDescription('At least 10 characters, hard to guess.');
    await userEvent.type(field, 'ada lovelace 1815');
    const feedback = document.getElementById('strength');
    expect(feedback).toHaveAttribute('aria-busy', 'true');
    expect(field).toHaveAccessibleDescription('Checking how easy it is to guess…');
    await vi.waitFor(() => expect(feedback).toHaveAttribute('aria-busy', 'false'), { timeout: 10_000 });
    expect(field).toHaveAccessibleDescription(expect.stringContaining('There should not be any personal or page related data.'));

    await userEvent.click(screen.getByRole('button', { name: 'Check' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Too easy to guess.');
  }, 30_000);

  it('says the rule, and lets the form send, when the worker stops and another cannot load', async () => {
    InProcessPasswordWorker.latest?.dispatchEvent(new ErrorEvent('error', { message: 'out of memory' }));
    vi.stubGlobal('Worker', UnloadableWorker);
    render(<Meter />);
    const field = screen.getByLabelText('Password');
    await userEvent.type(field, 'tangerine orbit quarry 7');
    const feedback = document.getElementById('strength');
    await vi.waitFor(() => expect(feedback).toHaveAttribute('aria-busy', 'false'));
    expect(field).toHaveAccessibleDescription('At least 10 characters, hard to guess.');
    await userEvent.click(screen.getByRole('button', { name: 'Check' }));
    expect(await screen.findByRole('status')).toHaveTextContent('no verdict');
  });
});
