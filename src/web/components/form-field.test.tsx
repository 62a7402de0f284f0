import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FormField } from './form-field';

describe('FormField', () => {
  it('labels the input and reads its hint with it', () => {
    render(<FormField id="phone" label="Phone Number" hint="With its country code." />);
    const input = screen.getByRole('textbox', { name: 'Phone Number' });
    expect(input).toHaveAccessibleDescription('With its country code.');
    expect(input).not.toHaveAttribute('aria-invalid');
  });

  it('marks the input invalid and reads the error after the descriptions it was given and the hint', () => {
    render(
      <>
        <p id="pending">Check your inbox.</p>
        <FormField id="email" label="Email" aria-describedby="pending" hint="Your login." error="Enter a valid email address" />
      </>,
    );
    const input = screen.getByRole('textbox', { name: 'Email' });
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('Check your inbox. Your login. Enter a valid email address');
  });

  it('has no description without a hint or an error', () => {
    render(<FormField id="name" label="Name" />);
    expect(screen.getByRole('textbox', { name: 'Name' })).not.toHaveAttribute('aria-describedby');
  });
});
