import type { CountryOption } from '../../common/countries';
import { cn } from '../lib/utils';

/**
 * A country's flag with its ISO code beside it, since many systems draw no emoji flags (only two
 * boxed letters, or nothing). Hidden from screen readers: the country's name is always next to it.
 */
export function CountryFlag({ country, className }: { country: Pick<CountryOption, 'flag' | 'code'>; className?: string }) {
  return (
    <span aria-hidden="true" className={cn('inline-flex shrink-0 items-center gap-1', className)}>
      <span>{country.flag}</span>
      <span className="font-mono text-xs font-medium">{country.code}</span>
    </span>
  );
}
