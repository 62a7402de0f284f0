import { PageHeading } from '../../components/page-heading';
import { ContactsCard } from './components/contacts-card';
import { PhoneNumbersCard } from './components/phone-numbers-card';

/** docs/product.md §2 Phone Management (/contacts): the numbers the user rents and the people they call. */
export function ContactsPage() {
  return (
    <>
      <PageHeading title="Phone Management">Rent the numbers you call from, and keep the people you call.</PageHeading>
      <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
        <PhoneNumbersCard />
        <ContactsCard />
      </div>
    </>
  );
}
