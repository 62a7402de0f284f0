import { useQuery } from '@tanstack/react-query';
import { CheckIcon, Loader2Icon, SearchIcon } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { useWatch } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { toast } from '../../../lib/toast';
import { FRIENDLY_NAME_MAX_LENGTH, renameNumberBodySchema, searchNumbersQuerySchema, type AvailableNumber, type NumberLimit } from '../../../../common/api/numbers';
import { countries, DEFAULT_COUNTRY, isSupportedCountry } from '../../../../common/countries';
import { formatPhoneNumber } from '../../../../common/phone';
import { moreNumbersAdvice, numbersInWords, planWithMoreNumbers, tierName, type Tier } from '../../../../common/plans';
import { CountryFlag } from '../../../components/country-flag';
import { Alert, AlertDescription, AlertTitle } from '../../../components/ui/alert';
import { FormAlert } from '../../../components/form-alert';
import { FormInput } from '../../../components/form-input';
import { PendingButton } from '../../../components/pending-button';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '../../../components/ui/dialog';
import { Label } from '../../../components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select';
import { ApiError } from '../../../lib/api-client';
import { cn } from '../../../lib/utils';
import { submitHandler, useZodForm } from '../../../lib/zod-form';
import { numberLimitQuery } from '../api/get-number-limit';
import { availableNumbersQuery, type NumberSearch } from '../api/search-available-numbers';
import { useRentNumber } from '../api/rent-number';
import { FailureAlert } from './failure-alert';
import { monthlyCost } from '../monthly-cost';

/**
 * docs/product.md §2 and §4: search, select one, optionally name it, add. Open and closed from outside too (the
 * empty list's 'Add Your First Number'); closing returns the focus to `trigger`.
 */
export function AddNumberDialog({ open, onOpenChange, trigger }: { open: boolean; onOpenChange: (open: boolean) => void; trigger: ReactNode }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Add Number</DialogTitle>
          <DialogDescription>Search for a number to rent, select one and, if you like, give it a name.</DialogDescription>
        </DialogHeader>
        <AddNumberForm onAdded={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

/** Where the plans are compared and bought. */
function PlansLink() {
  return (
    <Link to="/settings?tab=subscription" className="text-primary underline underline-offset-4">
      See the plans in Settings
    </Link>
  );
}

/** Shown instead of the search once the plan's numbers are all held: nothing more could be rented. */
function NumberLimitNotice({ tier, maxNumbers, held }: NumberLimit & { held: number }) {
  const holding =
    held > maxNumbers
      ? `You have ${numbersInWords(held)}; the ${tierName(tier)} plan includes ${maxNumbers}.`
      : `You have ${held} of ${maxNumbers} numbers on the ${tierName(tier)} plan.`;
  return (
    <Alert>
      <AlertTitle>Number limit reached</AlertTitle>
      <AlertDescription>
        <p>
          {holding} {moreNumbersAdvice(tier)}
        </p>
        {planWithMoreNumbers(tier) && <PlansLink />}
      </AlertDescription>
    </Alert>
  );
}

const hasMorePlans = (tier: Tier | undefined) => tier === undefined || planWithMoreNumbers(tier) !== null;

const DEFAULT_SEARCH: NumberSearch = { country: DEFAULT_COUNTRY, pattern: '' };

function AddNumberForm({ onAdded }: { onAdded: () => void }) {
  const searchForm = useZodForm(searchNumbersQuerySchema, { defaultValues: DEFAULT_SEARCH });
  // Chosen from the list only: always one of the countries, so it has no error to show.
  const country = useWatch({ control: searchForm.control, name: 'country' });
  // The search the results belong to; null before the first Search and after a number is added.
  const [search, setSearch] = useState<NumberSearch | null>(null);
  const [selected, setSelected] = useState<AvailableNumber | null>(null);
  // The friendly name is checked as renaming checks it; the number itself comes from the list.
  const rentForm = useZodForm(renameNumberBodySchema, { defaultValues: { friendlyName: '' } });
  const results = useQuery({ ...availableNumbersQuery(search ?? DEFAULT_SEARCH), enabled: search !== null });
  const rent = useRentNumber();
  const limit = useQuery(numberLimitQuery);
  const id = useId();

  const submitSearch = submitHandler(searchForm, (values) => {
    const next = { country: values.country && isSupportedCountry(values.country) ? values.country : DEFAULT_COUNTRY, pattern: values.pattern?.trim() ?? '' };
    setSelected(null);
    rent.reset();
    if (search && search.country === next.country && search.pattern === next.pattern) void results.refetch();
    else setSearch(next);
  });

  const add = submitHandler(rentForm, async ({ friendlyName }) => {
    if (!selected) return;
    try {
      const number = await rent.mutateAsync({ country: selected.country, phoneNumber: selected.phoneNumber, friendlyName: friendlyName?.trim() ?? '' });
      setSelected(null);
      rentForm.reset();
      setSearch(null);
      toast.success('Phone number added', { description: formatPhoneNumber(number.phoneNumber) });
      onAdded();
    } catch (error) {
      // Someone else rented it first: search again, without it.
      if (error instanceof ApiError && error.status === 409) {
        setSelected(null);
        void results.refetch();
      }
      throw error;
    }
  });

  // Only before a rent is tried: the list reloaded by a successful one must not replace the form
  // (and its success) while the dialog closes, and a refusal is shown in the server's words.
  if (limit.isSuccess && limit.data.held >= limit.data.maxNumbers && rent.isIdle) return <NumberLimitNotice {...limit.data} />;

  const numbers = search !== null && results.isSuccess ? results.data : [];
  const searching = search !== null && results.isFetching;
  const limitRefused = rent.error instanceof ApiError && rent.error.code === 'number_limit_reached';

  return (
    <div className="flex min-w-0 flex-col gap-4">
      <form noValidate onSubmit={submitSearch} className="grid gap-3 sm:grid-cols-[1fr_8rem_auto] sm:items-end">
        <div className="flex min-w-0 flex-col gap-2">
          <Label htmlFor={`${id}-country`}>Country</Label>
          <Select value={country} onValueChange={(value) => isSupportedCountry(value) && searchForm.setValue('country', value)}>
            <SelectTrigger id={`${id}-country`}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent short>
              {countries.map((option) => (
                <SelectItem key={option.code} value={option.code}>
                  <span className="flex items-center gap-2">
                    <CountryFlag country={option} />
                    {option.name}
                  </span>
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <FormInput
          form={searchForm}
          name="pattern"
          id={`${id}-pattern`}
          label="Pattern"
          inputMode="numeric"
          autoComplete="off"
          placeholder="e.g. 415"
          aria-describedby={`${id}-pattern-hint`}
        />
        <Button type="submit" disabled={searching} aria-busy={searching}>
          {searching ? <Loader2Icon className="animate-spin" aria-hidden="true" /> : <SearchIcon aria-hidden="true" />}
          Search
        </Button>
        <p id={`${id}-pattern-hint`} className="text-sm text-muted-foreground sm:col-span-3">
          Optional: the digits the number starts with after the country code, e.g. 415.
        </p>
      </form>

      {search !== null && results.isError && !searching && <FailureAlert title="Failed to search for numbers" error={results.error} />}
      {search !== null && results.isSuccess && !searching && numbers.length === 0 && (
        <Alert>
          <AlertTitle>No numbers found</AlertTitle>
          <AlertDescription>Try different search criteria</AlertDescription>
        </Alert>
      )}
      {numbers.length > 0 && (
        <ul aria-label="Available numbers" className={cn('max-h-[200px] overflow-y-auto rounded-md border', searching && 'opacity-60')}>
          {numbers.map((number) => {
            const isSelected = selected?.phoneNumber === number.phoneNumber;
            const formatted = formatPhoneNumber(number.phoneNumber);
            return (
              <li
                key={number.phoneNumber}
                className={cn('flex items-center justify-between gap-3 border-b px-3 py-2 last:border-b-0', isSelected && 'bg-accent')}
              >
                <div className="flex min-w-0 flex-col">
                  <span className="font-medium tabular-nums">{formatted}</span>
                  <span className="text-sm text-muted-foreground">{monthlyCost(number.cost, number.currency)}</span>
                </div>
                <Button
                  size="sm"
                  variant={isSelected ? 'default' : 'outline'}
                  aria-pressed={isSelected}
                  aria-label={`Select ${formatted}`}
                  onClick={() => {
                    setSelected(number);
                    rent.reset();
                  }}
                >
                  {isSelected && <CheckIcon aria-hidden="true" />}
                  Select
                </Button>
              </li>
            );
          })}
        </ul>
      )}

      <section aria-labelledby={`${id}-selected`} className="flex flex-col gap-3 rounded-md bg-muted/50 p-3">
        <h3 id={`${id}-selected`} className="text-sm font-medium">
          Selected number
        </h3>
        {selected ? (
          <p className="flex flex-wrap items-baseline justify-between gap-x-3">
            <span className="font-medium tabular-nums">{formatPhoneNumber(selected.phoneNumber)}</span>
            <span className="text-sm text-muted-foreground">{monthlyCost(selected.cost, selected.currency)}</span>
          </p>
        ) : (
          <p className="text-sm text-muted-foreground">None yet: search, then select a number.</p>
        )}
        <form noValidate onSubmit={add} className="flex flex-col gap-3">
          <FormInput
            form={rentForm}
            name="friendlyName"
            id={`${id}-friendly-name`}
            label="Friendly Name"
            autoComplete="off"
            placeholder="e.g. Office line (optional)"
            maxLength={FRIENDLY_NAME_MAX_LENGTH}
          />
          <FormAlert title="Failed to add phone number" message={rentForm.formState.errors.root?.server?.message} />
          {limitRefused && hasMorePlans(limit.data?.tier) && <PlansLink />}
          <PendingButton type="submit" disabled={!selected} pending={rentForm.formState.isSubmitting} className="w-full sm:w-fit sm:self-end">
            Add Number
          </PendingButton>
        </form>
      </section>
    </div>
  );
}
