import { lazy, Suspense, useState } from 'react';
import { CountryButton } from './country-button';
import type { CountryPickerProps } from './country-list-popover';

// The list and its popover (Radix's popper and floating-ui, about 11 kB) load as the dialer shows, not before (decision 041).
const CountryListPopover = lazy(() => import('./country-list-popover'));

/** docs/product.md §2: the dialer's country list; its button shows at once, and a press before the list has loaded opens it when it has. */
export function CountryPicker(props: CountryPickerProps) {
  const [pressed, setPressed] = useState(false);
  return (
    <Suspense fallback={<CountryButton value={props.value} aria-busy={pressed || undefined} onClick={() => setPressed(true)} />}>
      <CountryListPopover {...props} initiallyOpen={pressed} />
    </Suspense>
  );
}
