import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { popularCountries } from '../../../../common/countries';
import { CountryPicker } from './country-picker';

const unitedStates = popularCountries.find((country) => country.code === 'US')!;

describe('CountryPicker', () => {
  it('shows its button before the list has loaded, and opens the list then if it was pressed meanwhile', async () => {
    render(<CountryPicker value={unitedStates} onChange={vi.fn()} />);
    const button = screen.getByRole('button', { name: 'Country: United States +1' });
    fireEvent.click(button);
    expect(button).toHaveAttribute('aria-busy', 'true');
    expect(await screen.findByRole('listbox', { name: 'Countries' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Search countries...' })).toHaveFocus();
  });

  it('chooses a country found by its name', async () => {
    const onChange = vi.fn();
    render(<CountryPicker value={unitedStates} onChange={onChange} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Country: United States +1', expanded: false }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Search countries...' }), 'niger');
    await userEvent.click(within(screen.getByRole('group', { name: 'Popular' })).getByRole('option', { name: /Nigeria/ }));
    expect(onChange).toHaveBeenCalledWith(expect.objectContaining({ code: 'NG' }));
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
  });
});
