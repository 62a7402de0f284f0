import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { savePendingPaymentReference } from '../lib/pending-payment';
import { useSession } from '../lib/session';
import { Button } from './ui/button';

/** docs/product.md §2 guard: 'Loading...' while the session is checked; signed-out visitors go to / with where they were going. */
export function RequireSession() {
  const session = useSession();
  const location = useLocation();

  if (session.isPending) {
    return (
      <p role="status" className="p-8 text-center text-muted-foreground">
        Loading...
      </p>
    );
  }
  if (session.isError) {
    return (
      <div role="alert" className="mx-auto flex max-w-md flex-col items-center gap-3 p-8 text-center">
        <p>{session.error.message}</p>
        <Button variant="outline" onClick={() => void session.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  if (!session.data) {
    const reference = new URLSearchParams(location.search).get('reference');
    if (reference) savePendingPaymentReference(reference);
    return <Navigate to="/" replace state={{ from: location }} />;
  }
  return <Outlet />;
}
