import { Link } from 'react-router-dom';
import { PageHeading } from '../../components/page-heading';
import { PageLoading } from '../../components/page-loading';
import { Button } from '../../components/ui/button';
import { useSession } from '../../lib/session';
import { InstancesCard } from './components/instances-card';
import { LiveCallsCard } from './components/live-calls-card';
import { PaymentsCard } from './components/payments-card';

/**
 * The operator's page (docs/operations.md#admin-view): live calls on every instance, the
 * instances, the recent payments, each read again every 5 s while the tab is visible. Only users
 * whose address is in ADMIN_EMAILS see it; the server refuses everyone else too.
 */
export function AdminPage() {
  const session = useSession();
  const isAdmin = session.data?.isAdmin;
  // Signing in stores the user alone: the session is being read again to learn whether they are an administrator.
  if (isAdmin === undefined && session.isFetching) return <PageLoading />;
  if (!isAdmin) return <NoAccess />;
  return (
    <div className="flex flex-col gap-6">
      <PageHeading title="Admin">Live calls, instances and payments across Voxline, refreshed every 5 seconds.</PageHeading>
      <LiveCallsCard />
      <InstancesCard />
      <PaymentsCard />
    </div>
  );
}

function NoAccess() {
  return (
    <div className="flex flex-col items-center gap-3 py-12 text-center">
      <h1 className="text-2xl font-bold tracking-tight">You do not have access to this page</h1>
      <p className="text-muted-foreground">The Admin page is for Voxline&apos;s administrators.</p>
      <Button asChild variant="link">
        <Link to="/dialer">Go to the dialer</Link>
      </Button>
    </div>
  );
}
