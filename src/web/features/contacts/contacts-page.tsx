import { PageHeading } from '../../components/page-heading';

export function ContactsPage() {
  return <PageHeading title="Phone Management" />;
}
