import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { findCountry } from '../../common/countries';
import { CountryFlag } from './country-flag';

describe('CountryFlag', () => {
  it('writes the country code beside the flag, for systems that draw no emoji flags', () => {
    const { container } = render(<CountryFlag country={findCountry('NG')!} />);
    expect(container).toHaveTextContent('🇳🇬NG');
  });

  it('is hidden from screen readers, which read the country name beside it', () => {
    const { container } = render(<CountryFlag country={findCountry('US')!} />);
    expect(container.firstElementChild).toHaveAttribute('aria-hidden', 'true');
  });
});
