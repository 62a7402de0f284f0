import { PageHeading } from '../../components/page-heading';

export function CallSettingsPage() {
  return <PageHeading title="Call Settings" />;
}
