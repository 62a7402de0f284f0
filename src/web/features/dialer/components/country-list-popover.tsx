import { useId, useState } from 'react';
import { otherCountries, popularCountries, type CountryOption } from '../../../../common/countries';
import { CountryFlag } from '../../../components/country-flag';
import { CountryButton } from './country-button';
import { Input } from '../../../components/ui/input';
import { Popover, PopoverContent, PopoverTrigger } from '../../../components/ui/popover';
import { cn } from '../../../lib/utils';

function matches(country: CountryOption, query: string) {
  const q = query.trim().toLowerCase();
  return !q || country.name.toLowerCase().includes(q) || country.code.toLowerCase().includes(q) || country.dialCode.includes(q.replace(/^\+?/, '+'));
}

export interface CountryPickerProps {
  value: CountryOption;
  onChange(country: CountryOption): void;
}

/**
 * docs/product.md §2: the dialer's country list with search, a 'Popular' group and 'All Countries'.
 * Loaded after the dialer shows (country-picker.tsx): `initiallyOpen` when its button was pressed before.
 */
export default function CountryListPopover({ value, onChange, initiallyOpen }: CountryPickerProps & { initiallyOpen: boolean }) {
  const [open, setOpen] = useState(initiallyOpen);
  const [query, setQuery] = useState('');
  const listId = useId();
  const popular = popularCountries.filter((country) => matches(country, query));
  const all = [...popularCountries, ...otherCountries].filter((country) => matches(country, query));

  const choose = (country: CountryOption) => {
    onChange(country);
    setOpen(false);
    setQuery('');
  };

  const group = (label: string, items: readonly CountryOption[]) =>
    items.length > 0 && (
      <div role="group" aria-label={label}>
        <p className="px-3 pb-1 pt-2 text-xs font-medium text-muted-foreground">{label}</p>
        {items.map((country) => (
          <button
            key={`${label}-${country.code}`}
            type="button"
            role="option"
            aria-selected={country.code === value.code}
            onClick={() => choose(country)}
            className={cn(
              'flex w-full items-center gap-2 px-3 py-1.5 text-left text-sm hover:bg-accent focus-visible:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring',
              country.code === value.code && 'font-medium',
            )}
          >
            <CountryFlag country={country} className="w-12" />
            <span className="flex-1">{country.name}</span>
            <span className="w-12 text-right text-xs text-muted-foreground">{country.dialCode}</span>
          </button>
        ))}
      </div>
    );

  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        <CountryButton value={value} />
      </PopoverTrigger>
      <PopoverContent className="w-[var(--radix-popover-trigger-width)] min-w-72">
        <div className="border-b p-2">
          <Input
            autoFocus
            placeholder="Search countries..."
            aria-label="Search countries..."
            aria-controls={listId}
            value={query}
            onChange={(event) => setQuery(event.target.value)}
          />
        </div>
        <div id={listId} role="listbox" aria-label="Countries" className="h-72 overflow-y-auto py-1">
          {group('Popular', popular)}
          {group('All Countries', all)}
          {all.length === 0 && <p className="p-3 text-sm text-muted-foreground">No country matches your search.</p>}
        </div>
      </PopoverContent>
    </Popover>
  );
}
