import { useQuery } from '@tanstack/react-query';
import { VoicemailIcon } from 'lucide-react';
import { useEffect, useMemo } from 'react';
import { useLocation } from 'react-router-dom';
import { LoadFailed } from '../../../components/load-failed';
import { voicemailElementId, voicemailQuery } from '../../../lib/voicemail-query';
import { contactsQuery } from '../../contacts/api/get-contacts';
import { VoicemailItem } from './voicemail-item';

/** Every message, newest first; the one a missed call links to (/voicemail#voicemail-{id}) is brought into view. */
export function VoicemailList() {
  const voicemail = useQuery(voicemailQuery);
  // Names are a nicety: without contacts the numbers alone are shown.
  const contacts = useQuery(contactsQuery);
  const { hash } = useLocation();
  const target = hash.slice(1);

  const names = useMemo(() => {
    const byNumber = new Map<string, string>();
    for (const contact of contacts.data ?? []) if (!byNumber.has(contact.phoneNumber)) byNumber.set(contact.phoneNumber, contact.name);
    return byNumber;
  }, [contacts.data]);

  const loaded = voicemail.isSuccess;
  useEffect(() => {
    if (loaded && target) document.getElementById(target)?.scrollIntoView({ block: 'center' });
  }, [loaded, target]);

  if (voicemail.isPending) {
    return (
      <p role="status" className="py-6 text-center text-muted-foreground">
        Loading voicemail...
      </p>
    );
  }
  if (voicemail.isError) {
    return <LoadFailed message="Failed to load voicemail" reason={voicemail.error.message} onRetry={() => void voicemail.refetch()} retrying={voicemail.isFetching} />;
  }
  if (voicemail.data.voicemails.length === 0) {
    return (
      <div className="flex flex-col items-center gap-2 p-10 text-center text-muted-foreground">
        <VoicemailIcon className="size-8" aria-hidden="true" />
        <p>No voicemail yet</p>
        <p className="text-sm">When a call to one of your numbers goes unanswered, the caller can leave a message here.</p>
      </div>
    );
  }

  return (
    <>
      <p className="mb-3 text-sm text-muted-foreground" role="status">
        {voicemail.data.unheard === 0 ? 'All messages heard' : `${voicemail.data.unheard} unheard`}
      </p>
      <ul className="flex flex-col gap-3" aria-label="Voicemail messages">
        {voicemail.data.voicemails.map((message) => (
          <VoicemailItem key={message.id} message={message} contactName={names.get(message.from) ?? null} targeted={voicemailElementId(message.id) === target} />
        ))}
      </ul>
    </>
  );
}
