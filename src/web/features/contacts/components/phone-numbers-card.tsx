import { useQuery } from '@tanstack/react-query';
import { PlusIcon } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { toast } from '../../../lib/toast';
import type { OwnedNumber } from '../../../../common/api/numbers';
import { findCountry } from '../../../../common/countries';
import { formatPhoneNumber } from '../../../../common/phone';
import { CountryFlag } from '../../../components/country-flag';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { withErrorReference } from '../../../lib/error-reference';
import { phoneNumbersQuery } from '../../../lib/phone-numbers';
import { monthlyCost } from '../monthly-cost';
import { AddNumberDialog } from './add-number-dialog';
import { LoadFailed } from '../../../components/load-failed';
import { ReleaseNumberDialog } from './release-number-dialog';
import { RenameNumberDialog } from './rename-number-dialog';

/** docs/product.md §2: the user's numbers, with the Add Number dialog. */
export function PhoneNumbersCard() {
  const numbers = useQuery(phoneNumbersQuery);
  const [adding, setAdding] = useState(false);
  const titleId = useId();

  useEffect(() => {
    if (numbers.error) toast.error('Failed to load your phone numbers', { id: 'phone-numbers-load-failed', description: withErrorReference(numbers.error.message, numbers.error) });
  }, [numbers.error]);

  return (
    <Card aria-labelledby={titleId}>
      <CardHeader layout="row" className="items-start">
        <div className="flex min-w-0 flex-col gap-1.5">
          <CardTitle id={titleId}>Phone Numbers</CardTitle>
          <CardDescription>The numbers you call from and receive calls on.</CardDescription>
        </div>
        <AddNumberDialog
          open={adding}
          onOpenChange={setAdding}
          trigger={
            <Button>
              <PlusIcon aria-hidden="true" />
              Add Number
            </Button>
          }
        />
      </CardHeader>
      <CardContent>
        {numbers.isPending ? (
          <p role="status" className="py-6 text-center text-muted-foreground">
            Loading your phone numbers...
          </p>
        ) : numbers.isError ? (
          <LoadFailed
            message="Failed to load your phone numbers"
            reason={numbers.error.message}
            onRetry={() => void numbers.refetch()}
            retrying={numbers.isFetching}
          />
        ) : numbers.data.length === 0 ? (
          <div className="flex flex-col items-center gap-3 py-6 text-center">
            <p className="text-muted-foreground">You don't have any phone numbers yet.</p>
            <Button variant="outline" onClick={() => setAdding(true)}>
              <PlusIcon aria-hidden="true" />
              Add Your First Number
            </Button>
          </div>
        ) : (
          <ul aria-label="Your phone numbers" className="flex flex-col divide-y">
            {numbers.data.map((number) => (
              <NumberRow key={number.id} number={number} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function NumberRow({ number }: { number: OwnedNumber }) {
  const formatted = formatPhoneNumber(number.phoneNumber);
  const country = findCountry(number.country);
  return (
    <li className="flex items-center justify-between gap-3 py-3 first:pt-0 last:pb-0">
      <div className="flex min-w-0 flex-col gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium tabular-nums">{formatted}</span>
          <Badge variant={number.active ? 'default' : 'secondary'}>{number.active ? 'Active' : 'Inactive'}</Badge>
        </div>
        {number.friendlyName && <span className="break-words text-sm">{number.friendlyName}</span>}
        <span className="text-sm text-muted-foreground">
          {country && (
            <>
              <CountryFlag country={country} /> {country.name} ·{' '}
            </>
          )}
          <span className="whitespace-nowrap">{monthlyCost(number.monthlyCost, number.currency)}</span>
        </span>
      </div>
      <div className="flex shrink-0 gap-1">
        <RenameNumberDialog number={number} />
        <ReleaseNumberDialog number={number} />
      </div>
    </li>
  );
}
