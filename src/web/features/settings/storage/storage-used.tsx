import { useQuery } from '@tanstack/react-query';
import { storageUsageQuery } from '../../../lib/storage-usage-query';
import { formatBytes } from './format-bytes';

/** Settings' "Storage used": what the user's recordings and voicemail take, together and each. */
export function StorageUsed() {
  const usage = useQuery(storageUsageQuery);
  if (usage.isPending) return <>…</>;
  if (usage.isError) return <span className="text-sm font-normal text-muted-foreground">Not available right now</span>;
  const { recordingsBytes, voicemailBytes } = usage.data;
  return (
    <span className="flex flex-col">
      <span>{formatBytes(recordingsBytes + voicemailBytes)}</span>
      <span className="text-xs font-normal text-muted-foreground">
        Recordings {formatBytes(recordingsBytes)} · Voicemail {formatBytes(voicemailBytes)}
      </span>
    </span>
  );
}
