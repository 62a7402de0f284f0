import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AvailableNumber, NumberLimit, OwnedNumber } from '../../../../common/api/numbers';
import { renderRoutes } from '../../../../../tests/support/render-web';
import { apiError, stubApi, type StubResponder } from '../../../../../tests/support/web-fetch';
import { PhoneNumbersCard } from './phone-numbers-card';

const office: OwnedNumber = {
  id: '0b6f1f9e-2f0c-4a53-9a57-1d7e1b3f0001',
  phoneNumber: '+14155552671',
  friendlyName: 'Office',
  active: true,
  country: 'US',
  monthlyCost: '1.00',
  currency: 'USD',
  createdAt: '2025-01-01T00:00:00.000Z',
};

const spare: OwnedNumber = {
  ...office,
  id: '0b6f1f9e-2f0c-4a53-9a57-1d7e1b3f0002',
  phoneNumber: '+442079460958',
  friendlyName: null,
  active: false,
  country: 'GB',
};

const offer = (phoneNumber: string, country = 'US'): AvailableNumber => ({
  phoneNumber,
  country,
  cost: '1.25',
  currency: 'USD',
});

const offers = [offer('+14155552671'), offer('+14155559876'), offer('+14155551234')];

const SEARCH_415 = 'GET /api/v1/numbers/available?country=US&pattern=415';

/** A plan with room for the numbers these tests rent. */
const PREMIUM: NumberLimit = { tier: 'premium', maxNumbers: 3 };

const numbersList = (...numbers: OwnedNumber[]) => ({ status: 200, body: { numbers, limit: PREMIUM } });
const numbersOnPlan = (limit: NumberLimit, ...numbers: OwnedNumber[]) => ({ status: 200, body: { numbers, limit } });

function renderCard(answers: Record<string, StubResponder>) {
  const api = stubApi({ 'GET /api/v1/numbers': numbersList(), ...answers });
  vi.stubGlobal('fetch', api.fetchStub);
  const view = renderRoutes([{ path: '/contacts', element: <PhoneNumbersCard /> }], '/contacts');
  return { ...view, api };
}

async function openAddNumber() {
  await userEvent.click(await screen.findByRole('button', { name: 'Add Number' }));
  return screen.getByRole('dialog', { name: 'Add Number' });
}

async function search(dialog: HTMLElement, pattern: string) {
  const input = within(dialog).getByLabelText('Pattern');
  await userEvent.clear(input);
  if (pattern) await userEvent.type(input, pattern);
  await userEvent.click(within(dialog).getByRole('button', { name: 'Search' }));
}

beforeAll(() => {
  // Radix Select uses pointer capture and scrolls the chosen option into view; jsdom has neither.
  Element.prototype.hasPointerCapture ??= () => false;
  Element.prototype.releasePointerCapture ??= () => undefined;
  Element.prototype.scrollIntoView ??= () => undefined;
});

afterEach(() => vi.unstubAllGlobals());

describe('Phone Numbers card', () => {
  it('lists the numbers, formatted, with their state and friendly name', async () => {
    renderCard({ 'GET /api/v1/numbers': numbersList(office, spare) });
    expect(screen.getByRole('status')).toHaveTextContent('Loading your phone numbers...');

    const list = await screen.findByRole('list', { name: 'Your phone numbers' });
    const [first, second] = within(list).getAllByRole('listitem');
    expect(first).toHaveTextContent('+1 (415) 555-2671');
    expect(first).toHaveTextContent('Active');
    expect(first).toHaveTextContent('Office');
    expect(first).toHaveTextContent('1.00 USD/month');
    expect(second).toHaveTextContent('+44 20 7946 0958');
    expect(second).toHaveTextContent('Inactive');
  });

  it("shows the empty state, whose 'Add Your First Number' opens the dialog", async () => {
    renderCard({});
    expect(await screen.findByText("You don't have any phone numbers yet.")).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Add Your First Number' }));
    expect(screen.getByRole('dialog', { name: 'Add Number' })).toBeInTheDocument();
  });

  it('says the list failed to load, and loads it again on request', async () => {
    renderCard({ 'GET /api/v1/numbers': [apiError(500, 'internal', 'Something went wrong'), numbersList(office)] });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load your phone numbers');
    // The notice too, once sonner has loaded (src/web/lib/toast.ts).
    await waitFor(() => expect(screen.getAllByText('Failed to load your phone numbers')).toHaveLength(2));

    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('+1 (415) 555-2671')).toBeInTheDocument();
  });
});

describe('Add Number dialog', () => {
  it('searches, selects, names and adds a number, then clears itself and reloads the list', async () => {
    const added: OwnedNumber = { ...office, id: '0b6f1f9e-2f0c-4a53-9a57-1d7e1b3f0003', phoneNumber: '+14155559876', friendlyName: 'Sales' };
    const { api } = renderCard({
      'GET /api/v1/numbers': [numbersList(), numbersList(added)],
      [SEARCH_415]: { status: 200, body: { numbers: offers } },
      'POST /api/v1/numbers': { status: 201, body: added },
    });
    const dialog = await openAddNumber();
    const addNumber = within(dialog).getByRole('button', { name: 'Add Number' });
    expect(addNumber).toBeDisabled();
    expect(within(dialog).getByRole('combobox', { name: 'Country' })).toHaveTextContent('United States');
    expect(within(dialog).getByLabelText('Pattern')).toHaveAttribute('placeholder', 'e.g. 415');

    await search(dialog, '415');
    const results = await within(dialog).findByRole('list', { name: 'Available numbers' });
    expect(results).toHaveClass('max-h-[200px]', 'overflow-y-auto');
    expect(within(results).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      expect.stringContaining('+1 (415) 555-2671'),
      expect.stringContaining('+1 (415) 555-9876'),
      expect.stringContaining('+1 (415) 555-1234'),
    ]);
    expect(results).toHaveTextContent('1.25 USD/month');
    expect(addNumber).toBeDisabled();

    const choice = within(results).getByRole('button', { name: 'Select +1 (415) 555-9876' });
    expect(choice).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(choice);
    expect(choice).toHaveAttribute('aria-pressed', 'true');
    expect(within(results).getByRole('button', { name: 'Select +1 (415) 555-2671' })).toHaveAttribute('aria-pressed', 'false');
    expect(within(dialog).getByRole('region', { name: 'Selected number' })).toHaveTextContent('+1 (415) 555-9876');
    expect(addNumber).toBeEnabled();

    await userEvent.type(within(dialog).getByLabelText('Friendly Name'), '  Sales ');
    await userEvent.click(addNumber);

    expect(await screen.findByText('Phone number added')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.sent('POST', '/api/v1/numbers').map((request) => request.body)).toEqual([{ country: 'US', phoneNumber: '+14155559876', friendlyName: 'Sales' }]);
    expect(await screen.findByText('Sales')).toBeInTheDocument();

    // Opened again, it starts afresh.
    const reopened = await openAddNumber();
    expect(within(reopened).queryByRole('list', { name: 'Available numbers' })).not.toBeInTheDocument();
    expect(within(reopened).getByLabelText('Friendly Name')).toHaveValue('');
    expect(within(reopened).getByRole('button', { name: 'Add Number' })).toBeDisabled();
    // The whole journey, typed key by key, takes about 4 s in jsdom on a busy machine.
  }, 15_000);

  it('searches the chosen country, without a pattern when none is given', async () => {
    const { api } = renderCard({
      'GET /api/v1/numbers/available?country=CA': { status: 200, body: { numbers: [offer('+16135550142', 'CA')] } },
    });
    const dialog = await openAddNumber();
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Country' }));
    const options = screen.getAllByRole('option');
    expect(options).toHaveLength(20);
    expect(options[0]).toHaveTextContent('🇺🇸USUnited States');
    await userEvent.click(screen.getByRole('option', { name: /Canada/ }));
    expect(within(dialog).getByRole('combobox', { name: 'Country' })).toHaveTextContent('Canada');

    await search(dialog, '');
    expect(await within(dialog).findByText('+1 (613) 555-0142')).toBeInTheDocument();
    expect(api.sent('GET', '/api/v1/numbers/available?country=CA')).toHaveLength(1);
  });

  it("says so when nothing matches, as a notice rather than an error", async () => {
    renderCard({ [SEARCH_415]: { status: 200, body: { numbers: [] } } });
    const dialog = await openAddNumber();
    await search(dialog, '415');
    const notice = await within(dialog).findByRole('status');
    expect(notice).toHaveTextContent('No numbers found');
    expect(notice).toHaveTextContent('Try different search criteria');
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Add Number' })).toBeDisabled();
  });

  it('says the search failed, with the reason', async () => {
    renderCard({ [SEARCH_415]: apiError(502, 'provider_failed', 'Vonage rejected Voxline’s credentials (authentication failed)') });
    const dialog = await openAddNumber();
    await search(dialog, '415');
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to search for numbers');
    expect(alert).toHaveTextContent('Vonage rejected Voxline’s credentials (authentication failed)');
  });

  it("shows the provider's reason when renting fails, and keeps the choice to try again", async () => {
    const { api } = renderCard({
      [SEARCH_415]: { status: 200, body: { numbers: offers } },
      'POST /api/v1/numbers': apiError(502, 'provider_failed', 'Vonage refused to sell the number: method failed'),
    });
    const dialog = await openAddNumber();
    await search(dialog, '415');
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Select +1 (415) 555-2671' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Number' }));

    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to add phone number');
    expect(alert).toHaveTextContent('Vonage refused to sell the number: method failed');
    expect(within(dialog).getByRole('button', { name: 'Select +1 (415) 555-2671' })).toHaveAttribute('aria-pressed', 'true');
    // The card's read and the dialog's, nothing more: a failed rent changes no list.
    expect(api.sent('GET', '/api/v1/numbers')).toHaveLength(2);
  });

  it.each([
    ['Free, at its 1', numbersOnPlan({ tier: 'free', maxNumbers: 1 }, office), 'You have 1 of 1 numbers on the Free plan. Upgrade to Premium for up to 3.', true],
    ['Free after a paid plan expired, above its 1', numbersOnPlan({ tier: 'free', maxNumbers: 1 }, office, spare), 'You have 2 numbers; the Free plan includes 1. Upgrade to Premium for up to 3.', true],
    ['Platinum, at its 10', numbersOnPlan({ tier: 'platinum', maxNumbers: 10 }, ...Array.from({ length: 10 }, (_, index) => ({ ...office, id: `id-${index}` }))), 'Release a number to add another.', false],
  ])('shows the limit of %s before any search, instead of the search', async (_label, list, text, linksToPlans) => {
    const { api } = renderCard({ 'GET /api/v1/numbers': list });
    const dialog = await openAddNumber();
    const notice = await within(dialog).findByRole('status');
    expect(notice).toHaveTextContent('Number limit reached');
    expect(notice).toHaveTextContent(text);
    const link = within(notice).queryByRole('link', { name: 'See the plans in Settings' });
    if (linksToPlans) expect(link).toHaveAttribute('href', '/settings?tab=subscription');
    else expect(link).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Search' })).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Add Number' })).not.toBeInTheDocument();
    expect(api.sent('GET', '/api/v1/numbers/available?country=US')).toHaveLength(0);
  });

  it("shows the server's words when the plan's limit refuses a rent, with the way to the plans", async () => {
    const refusal = 'Your Free plan includes 1 number. Upgrade to Premium for up to 3.';
    renderCard({
      // Read while the user had no number: another tab rented one since.
      'GET /api/v1/numbers': numbersOnPlan({ tier: 'free', maxNumbers: 1 }),
      [SEARCH_415]: { status: 200, body: { numbers: offers } },
      'POST /api/v1/numbers': apiError(403, 'number_limit_reached', refusal),
    });
    const dialog = await openAddNumber();
    await search(dialog, '415');
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Select +1 (415) 555-2671' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Number' }));

    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to add phone number');
    expect(alert).toHaveTextContent(refusal);
    expect(within(dialog).getByRole('link', { name: 'See the plans in Settings' })).toHaveAttribute('href', '/settings?tab=subscription');
    expect(within(dialog).getByRole('button', { name: 'Select +1 (415) 555-2671' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('drops a number someone else rented first and searches again', async () => {
    const { api } = renderCard({
      [SEARCH_415]: [{ status: 200, body: { numbers: offers } }, { status: 200, body: { numbers: offers.slice(1) } }],
      'POST /api/v1/numbers': apiError(409, 'number_unavailable', 'Number no longer available', 'phoneNumber'),
    });
    const dialog = await openAddNumber();
    await search(dialog, '415');
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Select +1 (415) 555-2671' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Number' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Failed to add phone numberNumber no longer available');
    await waitFor(() => expect(within(dialog).queryByText('+1 (415) 555-2671')).not.toBeInTheDocument());
    expect(within(dialog).getByRole('button', { name: 'Add Number' })).toBeDisabled();
    expect(api.sent('GET', SEARCH_415.slice(4))).toHaveLength(2);
  });
});

describe('renaming and releasing a number', () => {
  it('renames a number, showing the server’s reason under the field', async () => {
    const { api } = renderCard({
      'GET /api/v1/numbers': [numbersList(office), numbersList({ ...office, friendlyName: 'Front desk' })],
      [`PATCH /api/v1/numbers/${office.id}`]: [apiError(400, 'invalid_input', 'friendlyName: Friendly name must be at most 100 characters', 'friendlyName'), { status: 200, body: { ...office, friendlyName: 'Front desk' } }],
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Rename +1 (415) 555-2671' }));
    const dialog = screen.getByRole('dialog', { name: 'Rename number' });
    const name = within(dialog).getByLabelText('Friendly Name');
    expect(name).toHaveValue('Office');

    await userEvent.clear(name);
    await userEvent.type(name, 'Front desk');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(/^Friendly name must be at most 100 characters$/);
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAccessibleDescription('Friendly name must be at most 100 characters');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Number renamed')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(await screen.findByText('Front desk')).toBeInTheDocument();
    expect(api.sent('PATCH', `/api/v1/numbers/${office.id}`)[1]?.body).toEqual({ friendlyName: 'Front desk' });
  });

  it('releases a number after a confirmation', async () => {
    const { api } = renderCard({
      'GET /api/v1/numbers': [numbersList(office), numbersList()],
      [`DELETE /api/v1/numbers/${office.id}`]: { status: 200, body: { ok: true } },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Release +1 (415) 555-2671' }));
    let confirmation = await screen.findByRole('alertdialog', { name: 'Release +1 (415) 555-2671?' });
    expect(confirmation).toHaveTextContent('The number goes back to the carrier');
    await userEvent.click(within(confirmation).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(api.sent('DELETE', `/api/v1/numbers/${office.id}`)).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Release +1 (415) 555-2671' }));
    confirmation = screen.getByRole('alertdialog', { name: 'Release +1 (415) 555-2671?' });
    await userEvent.click(within(confirmation).getByRole('button', { name: 'Release' }));
    expect(await screen.findByText('Number released')).toBeInTheDocument();
    expect(await screen.findByText("You don't have any phone numbers yet.")).toBeInTheDocument();
    expect(api.sent('DELETE', `/api/v1/numbers/${office.id}`)).toHaveLength(1);
  });

  it('keeps the number and says why when it cannot be released', async () => {
    renderCard({
      'GET /api/v1/numbers': numbersList(office),
      [`DELETE /api/v1/numbers/${office.id}`]: apiError(502, 'provider_failed', 'Vonage could not release the number'),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Release +1 (415) 555-2671' }));
    const confirmation = await screen.findByRole('alertdialog', { name: 'Release +1 (415) 555-2671?' });
    await userEvent.click(within(confirmation).getByRole('button', { name: 'Release' }));
    const alert = await within(confirmation).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to release number');
    expect(alert).toHaveTextContent('Vonage could not release the number');
  });
});
