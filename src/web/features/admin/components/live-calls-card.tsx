import { useQuery } from '@tanstack/react-query';
import { PhoneOffIcon } from 'lucide-react';
import type { AdminLiveCall } from '../../../../common/api/admin';
import { formatDuration } from '../../../../common/calls';
import { mediaTransportLabels } from '../../../../common/media';
import { formatPhoneNumber } from '../../../../common/phone';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { liveCallsQuery } from '../api/admin-queries';
import { shortInstanceId } from '../short-instance-id';
import { AdminCard } from './admin-card';
import { EndCallDialog } from './end-call-dialog';

/** Every call in progress on every instance, with what its holder measures, and a way to end it. */
export function LiveCallsCard() {
  return (
    <AdminCard
      title="Live calls"
      description="Calls in progress on every instance, with their audio figures where the instance holding them answered."
      query={useQuery(liveCallsQuery)}
      what="live calls"
      empty="No calls are up right now."
    >
      {(calls) => <LiveCallsTable calls={calls} />}
    </AdminCard>
  );
}

function LiveCallsTable({ calls }: { calls: AdminLiveCall[] }) {
  return (
    <Table>
      <caption className="sr-only">Live calls: who calls whom, how long for, how the audio travels, and the instance holding each</caption>
      <TableHeader>
        <TableRow>
          <TableHead scope="col">From</TableHead>
          <TableHead scope="col">To</TableHead>
          <TableHead scope="col">State</TableHead>
          <TableHead scope="col">Started</TableHead>
          <TableHead scope="col">Elapsed</TableHead>
          <TableHead scope="col">Audio</TableHead>
          <TableHead scope="col">Frames in / out</TableHead>
          <TableHead scope="col">Concealed</TableHead>
          <TableHead scope="col">Instance</TableHead>
          <TableHead scope="col">
            <span className="sr-only">Actions</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {calls.map((call) => (
          <LiveCallRow key={call.id} call={call} />
        ))}
      </TableBody>
    </Table>
  );
}

/** A side of the call: its number, and the Voxline user's address when it is one. */
function Party({ number, email }: { number: string; email: string | null }) {
  return (
    <div className="flex flex-col">
      <span>{formatPhoneNumber(number)}</span>
      <span className="text-xs text-muted-foreground">{email ?? 'outside Voxline'}</span>
    </div>
  );
}

function LiveCallRow({ call }: { call: AdminLiveCall }) {
  const from = formatPhoneNumber(call.from);
  const to = formatPhoneNumber(call.to);
  return (
    <TableRow>
      <TableCell>
        <Party number={call.from} email={call.callerEmail} />
      </TableCell>
      <TableCell>
        <Party number={call.to} email={call.calleeEmail} />
      </TableCell>
      <TableCell>
        <Badge variant={call.state === 'answered' ? 'default' : 'secondary'}>{call.state === 'answered' ? 'Talking' : call.state === 'ringing' ? 'Ringing' : 'Dialing'}</Badge>
        {call.direction === 'inbound' && <span className="ml-1 text-xs text-muted-foreground">inbound</span>}
      </TableCell>
      <TableCell>{new Date(call.startedAt).toLocaleString()}</TableCell>
      <TableCell>{formatDuration(call.elapsedSec)}</TableCell>
      <TableCell>{call.mediaTransport ? mediaTransportLabels[call.mediaTransport] : 'Not connected'}</TableCell>
      <TableCell>{call.media ? `${call.media.framesIn} / ${call.media.framesOut}` : '—'}</TableCell>
      <TableCell>{call.media ? call.media.concealedFrames : '—'}</TableCell>
      <TableCell>
        <span title={call.instanceId ?? undefined}>{call.instanceId ? shortInstanceId(call.instanceId) : '—'}</span>
      </TableCell>
      <TableCell>
        <EndCallDialog
          callId={call.id}
          description={`${from} to ${to}`}
          trigger={
            <Button variant="destructive" size="sm" aria-label={`End call from ${from} to ${to}`}>
              <PhoneOffIcon aria-hidden="true" />
              End call
            </Button>
          }
        />
      </TableCell>
    </TableRow>
  );
}
