import { PageHeading } from '../../components/page-heading';
import { VoicemailList } from './components/voicemail-list';

/** docs/product.md §2 Voicemail (/voicemail): the messages callers left when nobody answered. */
export function VoicemailPage() {
  return (
    <>
      <PageHeading title="Voicemail">Messages callers left when you did not answer. New ones appear here as they arrive.</PageHeading>
      <VoicemailList />
    </>
  );
}
