import { ChevronDownIcon } from 'lucide-react';
import type { ComponentProps } from 'react';
import type { CountryOption } from '../../../../common/countries';
import { CountryFlag } from '../../../components/country-flag';
import { Button } from '../../../components/ui/button';

/** The country picker's button: the chosen country, named with its dialling code. */
export function CountryButton({ value, ...props }: { value: CountryOption } & Omit<ComponentProps<typeof Button>, 'value'>) {
  return (
    <Button variant="outline" justify="between" className="w-full" aria-label={`Country: ${value.name} ${value.dialCode}`} {...props}>
      <span className="flex items-center gap-2">
        <CountryFlag country={value} />
        {value.name} ({value.dialCode})
      </span>
      <ChevronDownIcon className="opacity-50" />
    </Button>
  );
}
