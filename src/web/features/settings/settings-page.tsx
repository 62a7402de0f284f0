import { PageHeading } from '../../components/page-heading';

export function SettingsPage() {
  return <PageHeading title="Settings" />;
}
