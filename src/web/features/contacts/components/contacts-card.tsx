import { useQuery } from '@tanstack/react-query';
import { PencilIcon, PhoneIcon, SearchIcon, UserPlusIcon } from 'lucide-react';
import { Fragment, useEffect, useId, useMemo, useState } from 'react';
import { createSearchParams, useNavigate } from 'react-router-dom';
import { toast } from '../../../lib/toast';
import type { Contact } from '../../../../common/api/contacts';
import { formatPhoneNumber } from '../../../../common/phone';
import { Button } from '../../../components/ui/button';
import { IconTooltip } from '../../../components/ui/tooltip';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { contactsQuery } from '../api/get-contacts';
import { contactMatches } from '../contact-search';
import { ContactDialog } from './contact-dialog';
import { DeleteContactDialog } from './delete-contact-dialog';
import { LoadFailed } from '../../../components/load-failed';

/** docs/product.md §2: 'Your Contacts', searched as the user types, each one a tap away from a call. */
export function ContactsCard() {
  const contacts = useQuery(contactsQuery);
  const [search, setSearch] = useState('');
  const titleId = useId();
  const shown = useMemo(() => contacts.data?.filter((contact) => contactMatches(contact, search)) ?? [], [contacts.data, search]);

  useEffect(() => {
    if (contacts.error) toast.error('Error', { id: 'contacts-load-failed', description: 'Failed to load contacts' });
  }, [contacts.error]);

  return (
    <Card aria-labelledby={titleId}>
      <CardHeader layout="row" className="items-start">
        <div className="flex min-w-0 flex-col gap-1.5">
          <CardTitle id={titleId}>Your Contacts</CardTitle>
          <CardDescription>The people you call, sorted by name.</CardDescription>
        </div>
        <ContactDialog
          trigger={
            <Button>
              <UserPlusIcon aria-hidden="true" />
              Add Contact
            </Button>
          }
        />
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <div className="relative">
          <SearchIcon className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
          <Input
            type="search"
            placeholder="Search contacts..."
            aria-label="Search contacts"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            className="pl-9"
          />
        </div>
        {contacts.isPending ? (
          <p role="status" className="py-6 text-center text-muted-foreground">
            Loading contacts...
          </p>
        ) : contacts.isError ? (
          <LoadFailed message="Failed to load contacts" reason={contacts.error.message} onRetry={() => void contacts.refetch()} retrying={contacts.isFetching} />
        ) : contacts.data.length === 0 ? (
          <p className="py-6 text-center text-muted-foreground">You don't have any contacts yet</p>
        ) : shown.length === 0 ? (
          <p role="status" className="py-6 text-center text-muted-foreground">
            No contacts match your search
          </p>
        ) : (
          <Table aria-labelledby={titleId}>
            <TableHeader>
              <TableRow>
                <TableHead>Name</TableHead>
                <TableHead>Phone</TableHead>
                <TableHead className="hidden md:table-cell">Email</TableHead>
                <TableHead align="right">Actions</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {shown.map((contact) => (
                <ContactRow key={contact.id} contact={contact} />
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}

function ContactRow({ contact }: { contact: Contact }) {
  const navigate = useNavigate();
  // Beyond the prototype (docs/product.md §2): the dialer opens with the number filled in.
  const call = () => navigate({ pathname: '/dialer', search: `?${createSearchParams({ to: contact.phoneNumber })}` });

  return (
    <TableRow>
      <TableCell wrap className="min-w-24 break-words font-medium">{contact.name}</TableCell>
      <TableCell wrap className="tabular-nums">
        <PhoneNumberText phoneNumber={contact.phoneNumber} />
      </TableCell>
      <TableCell wrap className="hidden text-muted-foreground wrap-anywhere md:table-cell">
        {contact.email ?? (
          <>
            <span aria-hidden="true">—</span>
            <span className="sr-only">No email</span>
          </>
        )}
      </TableCell>
      <TableCell>
        <div className="flex justify-end sm:gap-1">
          <IconTooltip label={`Call ${contact.name}`}>
            <Button variant="ghost" size="icon-responsive" aria-label={`Call ${contact.name}`} onClick={call}>
              <PhoneIcon aria-hidden="true" />
            </Button>
          </IconTooltip>
          <ContactDialog
            contact={contact}
            trigger={
              <IconTooltip label={`Edit ${contact.name}`}>
                <Button variant="ghost" size="icon-responsive" aria-label={`Edit ${contact.name}`}>
                  <PencilIcon aria-hidden="true" />
                </Button>
              </IconTooltip>
            }
          />
          <DeleteContactDialog contact={contact} />
        </div>
      </TableCell>
    </TableRow>
  );
}

/** A formatted number that wraps, on a narrow screen, only between its groups: '+1 (213)' / '373-4253'. */
function PhoneNumberText({ phoneNumber }: { phoneNumber: string }) {
  const groups = formatPhoneNumber(phoneNumber).split(' ');
  return groups.map((group, index) => (
    <Fragment key={index}>
      {index > 0 && ' '}
      <span className="whitespace-nowrap">{group}</span>
    </Fragment>
  ));
}
