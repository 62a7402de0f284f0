import { useQuery } from '@tanstack/react-query';
import type { AdminPayment } from '../../../../common/api/admin';
import { formatNgn, formatUsd, tierName } from '../../../../common/plans';
import { Badge } from '../../../components/ui/badge';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { paymentsQuery } from '../api/admin-queries';
import { AdminCard } from './admin-card';

function statusVariant(status: AdminPayment['status']): 'default' | 'secondary' | 'destructive' {
  if (status === 'success') return 'default';
  return status === 'failed' || status === 'abandoned' || status === 'reversed' ? 'destructive' : 'secondary';
}

/** What was charged: the plan's dollar price, and the naira the provider took. */
function amount(payment: AdminPayment): string {
  const charged = payment.currency === 'NGN' ? formatNgn(payment.amountMinor) : `${payment.amountMinor / 100} ${payment.currency}`;
  return `${formatUsd(payment.amountUsdMinor)} (${charged})`;
}

/** The latest 50 payment sessions of every user. */
export function PaymentsCard() {
  return (
    <AdminCard title="Recent payments" description="The latest 50 checkouts, newest first." query={useQuery(paymentsQuery)} what="recent payments" empty="No payments yet.">
      {(payments) => (
        <Table>
          <caption className="sr-only">Recent payments: when, who, which plan, how much and how it went</caption>
          <TableHeader>
            <TableRow>
              <TableHead scope="col">Time</TableHead>
              <TableHead scope="col">User</TableHead>
              <TableHead scope="col">Plan</TableHead>
              <TableHead scope="col">Amount</TableHead>
              <TableHead scope="col">Status</TableHead>
              <TableHead scope="col">Reference</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {payments.map((payment) => (
              <TableRow key={payment.reference}>
                <TableCell>{new Date(payment.createdAt).toLocaleString()}</TableCell>
                <TableCell>{payment.email}</TableCell>
                <TableCell>{tierName(payment.plan)}</TableCell>
                <TableCell>{amount(payment)}</TableCell>
                <TableCell>
                  <Badge variant={statusVariant(payment.status)}>{payment.status}</Badge>
                </TableCell>
                <TableCell className="font-mono text-xs">{payment.reference}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </AdminCard>
  );
}
