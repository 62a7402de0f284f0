import type { UseQueryResult } from '@tanstack/react-query';
import { useId, type ReactNode } from 'react';
import { LoadFailed } from '../../../components/load-failed';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';

interface AdminCardProps<T> {
  title: string;
  description: string;
  query: UseQueryResult<T[]>;
  /** What is missing while it loads, fails or is empty: "live calls". */
  what: string;
  /** Said when the list is empty. */
  empty: string;
  children: (items: T[]) => ReactNode;
}

/**
 * One list of the Admin page in its card: waiting, failed with a way to ask again, empty, or the
 * table. A refresh that fails keeps the last list shown; the next refresh may bring it back.
 */
export function AdminCard<T>({ title, description, query, what, empty, children }: AdminCardProps<T>) {
  const titleId = useId();
  return (
    <Card aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle id={titleId}>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>
        {query.isPending ? (
          <p role="status" className="py-6 text-center text-muted-foreground">
            Loading {what}...
          </p>
        ) : query.data === undefined ? (
          <LoadFailed message={`Failed to load ${what}`} reason={query.error?.message} onRetry={() => void query.refetch()} retrying={query.isFetching} />
        ) : query.data.length === 0 ? (
          <p className="py-6 text-center text-muted-foreground">{empty}</p>
        ) : (
          children(query.data)
        )}
      </CardContent>
    </Card>
  );
}
