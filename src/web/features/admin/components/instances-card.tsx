import { useQuery } from '@tanstack/react-query';
import type { AdminInstance } from '../../../../common/api/admin';
import { Badge } from '../../../components/ui/badge';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { instancesQuery } from '../api/admin-queries';
import { shortInstanceId } from '../short-instance-id';
import { AdminCard } from './admin-card';

const stateBadges: Record<AdminInstance['state'], { label: string; variant: 'default' | 'secondary' | 'destructive' }> = {
  running: { label: 'Running', variant: 'default' },
  draining: { label: 'Draining', variant: 'secondary' },
  stopped: { label: 'Stopped', variant: 'destructive' },
};

/** The server instances sharing the database, from their heartbeats. */
export function InstancesCard() {
  return (
    <AdminCard
      title="Instances"
      description="Draining: stopping after SIGTERM, taking no new calls. Stopped: silent for 30 s; its calls are closed shortly."
      query={useQuery(instancesQuery)}
      what="instances"
      empty="No instance is running."
    >
      {(instances) => (
        <Table>
          <caption className="sr-only">Instances: their state, when they started and last beat, and the calls each holds</caption>
          <TableHeader>
            <TableRow>
              <TableHead scope="col">Instance</TableHead>
              <TableHead scope="col">State</TableHead>
              <TableHead scope="col">Started</TableHead>
              <TableHead scope="col">Last heartbeat</TableHead>
              <TableHead scope="col">Draining since</TableHead>
              <TableHead scope="col">Calls</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {instances.map((instance) => (
              <TableRow key={instance.id}>
                <TableHead scope="row" className="font-mono">
                  <span title={instance.id}>{shortInstanceId(instance.id)}</span>
                </TableHead>
                <TableCell>
                  <Badge variant={stateBadges[instance.state].variant}>{stateBadges[instance.state].label}</Badge>
                </TableCell>
                <TableCell>{new Date(instance.startedAt).toLocaleString()}</TableCell>
                <TableCell>{new Date(instance.heartbeatAt).toLocaleTimeString()}</TableCell>
                <TableCell>{instance.drainingSince ? new Date(instance.drainingSince).toLocaleString() : '—'}</TableCell>
                <TableCell>{instance.calls}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </AdminCard>
  );
}
