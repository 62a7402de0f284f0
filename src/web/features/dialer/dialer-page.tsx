import { PageHeading } from '../../components/page-heading';

export function DialerPage() {
  return <PageHeading title="Dialer" />;
}
