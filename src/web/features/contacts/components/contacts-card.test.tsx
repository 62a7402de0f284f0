import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useSearchParams } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Contact } from '../../../../common/api/contacts';
import { renderRoutes } from '../../../../../tests/support/render-web';
import { apiError, stubApi, type StubResponder } from '../../../../../tests/support/web-fetch';
import { ContactsCard } from './contacts-card';

const ada: Contact = { id: '5d0c1a62-8f1e-4a9e-b7f4-000000000001', name: 'Ada Lovelace', phoneNumber: '+14155552671', email: 'ada@example.com', voice: null };
const grace: Contact = { id: '5d0c1a62-8f1e-4a9e-b7f4-000000000002', name: 'Grace Hopper', phoneNumber: '+442079460958', email: null, voice: null };
const linus: Contact = { id: '5d0c1a62-8f1e-4a9e-b7f4-000000000003', name: 'Linus', phoneNumber: '+16135550142', email: 'linus@kernel.example', voice: null };

const contactsList = (...contacts: Contact[]) => ({ status: 200, body: { contacts } });

function DialerProbe() {
  const [params] = useSearchParams();
  return <h1>Dialer to {params.get('to')}</h1>;
}

function renderCard(answers: Record<string, StubResponder>) {
  const api = stubApi({ 'GET /api/v1/contacts': contactsList(ada, grace, linus), ...answers });
  vi.stubGlobal('fetch', api.fetchStub);
  const view = renderRoutes(
    [
      { path: '/contacts', element: <ContactsCard /> },
      { path: '/dialer', element: <DialerProbe /> },
    ],
    '/contacts',
  );
  return { ...view, api };
}

afterEach(() => vi.unstubAllGlobals());

describe('Your Contacts', () => {
  it('lists the contacts in a table, email hidden on small screens', async () => {
    renderCard({});
    expect(screen.getByRole('status')).toHaveTextContent('Loading contacts...');
    const table = await screen.findByRole('table', { name: 'Your Contacts' });
    expect(within(table).getAllByRole('columnheader').map((header) => header.textContent)).toEqual(['Name', 'Phone', 'Email', 'Actions']);
    expect(within(table).getByRole('columnheader', { name: 'Email' })).toHaveClass('hidden', 'md:table-cell');

    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]?.textContent)).toEqual(['Ada Lovelace', 'Grace Hopper', 'Linus']);
    expect(rows[0]).toHaveTextContent('+1 (415) 555-2671');
    expect(rows[1]).toHaveTextContent('+44 20 7946 0958');
    expect(within(rows[0]!).getByRole('cell', { name: 'ada@example.com' })).toHaveClass('hidden', 'md:table-cell');
    expect(within(rows[0]!).getByRole('button', { name: 'Call Ada Lovelace' })).toBeInTheDocument();
    expect(within(rows[0]!).getByRole('button', { name: 'Edit Ada Lovelace' })).toBeInTheDocument();
    expect(within(rows[0]!).getByRole('button', { name: 'Delete Ada Lovelace' })).toBeInTheDocument();
  });

  it('says when there are no contacts yet', async () => {
    renderCard({ 'GET /api/v1/contacts': contactsList() });
    expect(await screen.findByText("You don't have any contacts yet")).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('says the list failed to load, and loads it again on request', async () => {
    renderCard({ 'GET /api/v1/contacts': [apiError(500, 'internal', 'Something went wrong'), contactsList(ada)] });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load contacts');
    expect(await screen.findByText('Error')).toBeInTheDocument(); // the notice
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('cell', { name: 'Ada Lovelace' })).toBeInTheDocument();
  });

  it('filters by name, phone or email as the user types, case-insensitively', async () => {
    const { api } = renderCard({});
    const search = await screen.findByPlaceholderText('Search contacts...');
    await screen.findByRole('table');
    const names = () => screen.getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('cell')[0]?.textContent);

    await userEvent.type(search, 'gRaCe');
    expect(names()).toEqual(['Grace Hopper']);

    await userEvent.clear(search);
    await userEvent.type(search, 'KERNEL.example');
    expect(names()).toEqual(['Linus']);

    await userEvent.clear(search);
    await userEvent.type(search, '(415) 555');
    expect(names()).toEqual(['Ada Lovelace']);

    await userEvent.clear(search);
    await userEvent.type(search, '+44');
    expect(names()).toEqual(['Grace Hopper']);

    await userEvent.clear(search);
    await userEvent.type(search, 'nobody');
    expect(screen.getByText('No contacts match your search')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();

    await userEvent.clear(search);
    expect(names()).toEqual(['Ada Lovelace', 'Grace Hopper', 'Linus']);
    // Filtering happens here, over the list loaded once.
    expect(api.sent('GET', '/api/v1/contacts')).toHaveLength(1);
  });

  it('opens the dialer with the contact’s number', async () => {
    const { router } = renderCard({});
    await userEvent.click(await screen.findByRole('button', { name: 'Call Grace Hopper' }));
    expect(await screen.findByRole('heading', { name: 'Dialer to +442079460958' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dialer');
    expect(new URLSearchParams(router.state.location.search).get('to')).toBe('+442079460958');
  });
});

describe('Add Contact dialog', () => {
  it('asks for the name and number, shows the server’s reason, then adds the contact', async () => {
    const added: Contact = { id: '5d0c1a62-8f1e-4a9e-b7f4-000000000004', name: 'Alan Turing', phoneNumber: '+14155550199', email: null, voice: null };
    const { api } = renderCard({
      'GET /api/v1/contacts': [contactsList(ada), contactsList(ada, added)],
      'POST /api/v1/contacts': [apiError(400, 'invalid_input', 'Enter a valid phone number', 'phoneNumber'), { status: 201, body: added }],
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Add Contact' }));
    const dialog = screen.getByRole('dialog', { name: 'Add Contact' });
    const name = within(dialog).getByLabelText('Name');
    const phone = within(dialog).getByLabelText('Phone Number');
    expect(within(dialog).getByLabelText('Email (optional)')).toHaveAttribute('type', 'email');

    await userEvent.type(name, 'Alan Turing');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Contact' }));
    expect(await within(dialog).findByText('Missing information')).toBeInTheDocument();
    expect(within(dialog).getAllByRole('alert').map((alert) => alert.textContent)).toEqual([
      'Phone number is required',
      'Missing informationName and phone number are required',
    ]);
    expect(phone).toHaveAttribute('aria-invalid', 'true');
    expect(phone).toHaveAccessibleDescription('With its country code when it is abroad. Phone number is required');
    expect(phone).toHaveFocus();
    expect(name).not.toHaveAttribute('aria-invalid');
    expect(api.sent('POST', '/api/v1/contacts')).toHaveLength(0);

    // The server's reason about a field is shown under that field.
    await userEvent.type(phone, '12');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Contact' }));
    await waitFor(() => expect(phone).toHaveAccessibleDescription('With its country code when it is abroad. Enter a valid phone number'));
    expect(phone).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getAllByRole('alert').map((alert) => alert.textContent)).toEqual(['Enter a valid phone number']);

    await userEvent.clear(phone);
    await userEvent.type(phone, '415 555 0199');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Contact' }));
    expect(await screen.findByText('Contact added')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(await screen.findByRole('cell', { name: 'Alan Turing' })).toBeInTheDocument();
    expect(api.sent('POST', '/api/v1/contacts')[1]?.body).toEqual({ name: 'Alan Turing', phoneNumber: '415 555 0199', email: '', voice: null });

    // The form starts empty next time.
    await userEvent.click(screen.getByRole('button', { name: 'Add Contact' }));
    expect(within(screen.getByRole('dialog', { name: 'Add Contact' })).getByLabelText('Name')).toHaveValue('');
  });
});

describe('Edit Contact dialog', () => {
  it('edits a contact, saying why when the server refuses', async () => {
    const edited = { ...ada, name: 'Ada King', email: null };
    const { api } = renderCard({
      'GET /api/v1/contacts': [contactsList(ada), contactsList(edited)],
      [`PATCH /api/v1/contacts/${ada.id}`]: [apiError(404, 'not_found', 'Contact not found'), { status: 200, body: edited }],
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Ada Lovelace' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Contact' });
    const name = within(dialog).getByLabelText('Name');
    expect(name).toHaveValue('Ada Lovelace');
    expect(within(dialog).getByLabelText('Phone Number')).toHaveValue('+14155552671');
    expect(within(dialog).getByLabelText('Email (optional)')).toHaveValue('ada@example.com');

    await userEvent.clear(name);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await within(dialog).findByText('Name and phone number are required')).toBeInTheDocument();
    expect(name).toHaveAccessibleDescription('Name is required');
    expect(api.sent('PATCH', `/api/v1/contacts/${ada.id}`)).toHaveLength(0);

    await userEvent.type(name, 'Ada King');
    await userEvent.clear(within(dialog).getByLabelText('Email (optional)'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    const failure = await within(dialog).findByRole('alert');
    expect(failure).toHaveTextContent('Failed to update contact');
    expect(failure).toHaveTextContent('Contact not found');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Contact updated')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(await screen.findByRole('cell', { name: 'Ada King' })).toBeInTheDocument();
    expect(api.sent('PATCH', `/api/v1/contacts/${ada.id}`)[1]?.body).toEqual({ name: 'Ada King', phoneNumber: '+14155552671', email: '', voice: null });
  });
});

describe('a contact\'s voice preset in the Edit Contact dialog', () => {
  beforeAll(() => {
    // Radix Select uses pointer capture and scrolls the chosen option into view; jsdom has neither.
    Element.prototype.hasPointerCapture ??= () => false;
    Element.prototype.releasePointerCapture ??= () => undefined;
    Element.prototype.scrollIntoView ??= () => undefined;
  });

  it('shows the preset, sends a change, shows the plan\'s refusal, and goes back to the default voice', async () => {
    const withVoice: Contact = { ...ada, voice: { voiceType: 'normal', pitch: 1.5, speed: 1 } };
    const { api } = renderCard({
      'GET /api/v1/contacts': [contactsList(withVoice), contactsList(ada)],
      [`PATCH /api/v1/contacts/${ada.id}`]: [apiError(403, 'plan_required', 'This accent needs Platinum', 'voice'), { status: 200, body: ada }],
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Ada Lovelace' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Contact' });
    const voice = within(dialog).getByRole('combobox', { name: 'Voice for calls to this contact' });
    expect(voice).toHaveTextContent('Normal Accent');
    expect(within(dialog).getByRole('slider', { name: 'Pitch' })).toHaveValue('1.5');
    fireEvent.input(within(dialog).getByRole('slider', { name: 'Speed' }), { target: { value: '1.2' } });
    await userEvent.click(voice);
    await userEvent.click(screen.getByRole('option', { name: 'Chinese Accent' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('This accent needs Platinum');
    expect(api.sent('PATCH', `/api/v1/contacts/${ada.id}`)[0]?.body).toMatchObject({ voice: { voiceType: 'chinese', pitch: 1.5, speed: 1.2 } });

    await userEvent.click(voice);
    await userEvent.click(screen.getByRole('option', { name: 'Use my default voice' }));
    expect(within(dialog).queryByRole('slider', { name: 'Pitch' })).not.toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Contact updated')).toBeInTheDocument();
    expect(api.sent('PATCH', `/api/v1/contacts/${ada.id}`)[1]?.body).toMatchObject({ voice: null });
  });
});

describe('deleting a contact', () => {
  it('asks first, then deletes', async () => {
    const { api } = renderCard({
      'GET /api/v1/contacts': [contactsList(ada, grace), contactsList(grace)],
      [`DELETE /api/v1/contacts/${ada.id}`]: [apiError(500, 'internal', 'Something went wrong'), { status: 200, body: { ok: true } }],
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Ada Lovelace' }));
    let confirmation = await screen.findByRole('alertdialog', { name: 'Are you sure you want to delete Ada Lovelace?' });
    await userEvent.click(within(confirmation).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(api.sent('DELETE', `/api/v1/contacts/${ada.id}`)).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Delete Ada Lovelace' }));
    confirmation = screen.getByRole('alertdialog', { name: 'Are you sure you want to delete Ada Lovelace?' });
    await userEvent.click(within(confirmation).getByRole('button', { name: 'Delete' }));
    const failure = await within(confirmation).findByRole('alert');
    expect(failure).toHaveTextContent('Failed to delete contact');
    expect(failure).toHaveTextContent('Something went wrong');

    await userEvent.click(within(confirmation).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Contact deleted')).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    await expect.poll(() => screen.queryByRole('cell', { name: 'Ada Lovelace' })).toBeNull();
    // The closed dialog gives the rest of the page back to screen readers as its effects clean up.
    expect(await screen.findByRole('cell', { name: 'Grace Hopper' })).toBeInTheDocument();
    expect(api.sent('DELETE', `/api/v1/contacts/${ada.id}`)).toHaveLength(2);
  });
});
