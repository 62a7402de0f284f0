import { PageHeading } from '../../components/page-heading';

export function AuthPage() {
  return <PageHeading title="Log in to Voxline" />;
}
