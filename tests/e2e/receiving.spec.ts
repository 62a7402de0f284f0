import type { Page } from '@playwright/test';
import { rms } from '../support/dsp/analysis';
import { expect, test, type LaunchWithMicrophone } from './fixtures';
import { expectToHear, listenTo } from './support/heard-audio';
import { blockUdp } from './support/no-udp';
import { signUpWithANumber, startReceiving, type PersonWithANumber } from './support/people';
import { writeSineWav } from './support/wav';

/**
 * Issue 6: receiving calls in the browser. Two browsers, each with its own fake microphone: A
 * listens on the Call Receiver tab, B dials A's rented number from the dialer.
 *
 * Every test rents its numbers from its own area codes (other specs use 646, 312 and 415), so
 * tests running side by side never race for one number.
 */

/** What a test needs of one end: beside the person, the audio they receive and their number in E.164. */
interface Party extends PersonWithANumber {
  heard: Awaited<ReturnType<typeof listenTo>>;
  /** The rented number, E.164 (+1XXXXXXXXXX). */
  number: string;
}

/** '+1 (917) 555-1234' → '+19175551234'. */
function e164Of(shown: string) {
  return `+${shown.replace(/\D/g, '')}`;
}

/** A new person with a fake microphone playing a looping tone, signed up, logged in and owning one number. */
async function newParty(launchWithMicrophone: LaunchWithMicrophone, { name, frequency, pattern, noUdp = false }: { name: string; frequency: number; pattern: string; noUdp?: boolean }): Promise<Party> {
  const { page } = await launchWithMicrophone(writeSineWav({ frequency, seconds: 10, silenceSeconds: 0 }), { loop: true });
  if (noUdp) await blockUdp(page);
  const heard = await listenTo(page);
  const person = await signUpWithANumber(page, name, pattern);
  return { ...person, heard, number: e164Of(person.shown) };
}

/** Dials `to` (a +1 number) from the dialer, with the default country (United States +1). */
async function dial(caller: Party, to: Party) {
  const { page } = caller;
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dialer', exact: true }).click();
  await expect(page.getByRole('button', { name: /^Country: United States \+1/ })).toBeVisible();
  await page.getByLabel('Phone number').fill(to.number.slice(2));
  await page.getByRole('button', { name: 'Call', exact: true }).click();
}

/** The entries of the page's Call History, newest first. */
async function openHistory(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dialer', exact: true }).click();
  await page.getByRole('tab', { name: 'Call History' }).click();
  return page.getByRole('list', { name: 'Recent calls' }).getByRole('listitem');
}

const paths = [
  { over: 'over WebRTC', noUdp: false, label: 'Audio: WebRTC (Opus)', patterns: ['917', '718'] },
  { over: 'with UDP blocked, over the websocket', noUdp: true, label: 'Audio: WebSocket (Opus)', patterns: ['619', '702'] },
] as const;

for (const { over, noUdp, label, patterns } of paths) {
  test(`A receives B’s call in the browser ${over}: rings, answers, both hear each other, mute silences A, B hangs up, both histories show it`, async ({ launchWithMicrophone }) => {
    test.setTimeout(120_000);
    const [a, b] = await Promise.all([
      newParty(launchWithMicrophone, { name: 'Callee Ada', frequency: 660, pattern: patterns[0], noUdp }),
      newParty(launchWithMicrophone, { name: 'Caller Bea', frequency: 440, pattern: patterns[1], noUdp }),
    ]);

    await startReceiving(a);
    await dial(b, a);
    const bar = b.page.getByRole('region', { name: 'Active call' });
    await expect(bar).toBeVisible();
    await expect(bar).toContainText('Ringing...');

    // A's tab rings with B's number.
    const incoming = a.page.getByRole('region', { name: 'Incoming Call' });
    await expect(incoming).toBeVisible();
    await expect(incoming).toContainText(b.shown);
    await expect(a.page.getByText('Incoming call', { exact: true })).toBeVisible();
    await incoming.getByRole('button', { name: 'Answer' }).click();

    const onCall = a.page.getByRole('region', { name: 'On Call' });
    await expect(onCall).toBeVisible();
    await expect(incoming).toBeHidden();
    await expect(onCall).toContainText(b.shown);
    await expect(a.page.getByText('Call connected')).toBeVisible();
    await expect(b.page.getByText('Call connected')).toBeVisible();
    await expect(bar).toContainText(/\d+:\d\d/);

    // Each side hears the other's microphone: B's 440 Hz at A, A's 660 Hz at B.
    await expect(bar.getByRole('note', { name: 'Audio path' })).toHaveText(label, { timeout: 15_000 });
    await expectToHear(a.heard, 440);
    await expectToHear(b.heard, 660);
    await expect(onCall).toContainText(/0:0[2-9]|0:[1-5]\d/);

    // A mutes: B hears silence (after a margin for frames already on their way), A still hears B.
    await onCall.getByRole('button', { name: 'Mute' }).click();
    await expect(a.page.getByText('Microphone muted')).toBeVisible();
    await expect(onCall.getByRole('button', { name: 'Unmute' })).toBeVisible();
    await expect.poll(async () => rms((await b.heard.last(1)).samples), { timeout: 10_000 }).toBeLessThan(0.001);
    await expectToHear(a.heard, 440);

    // B ends the call from the active-call bar; both ends say so.
    await bar.getByRole('button', { name: 'End call' }).click();
    await expect(b.page.getByText('Call ended')).toBeVisible();
    await expect(bar).toBeHidden();
    await expect(a.page.getByText('Call ended')).toBeVisible();
    await expect(onCall).toBeHidden();
    await expect(a.page.getByText('Ready to receive incoming calls')).toBeVisible();

    // Both histories hold the call: A's is incoming from B, B's is outgoing to A, both completed.
    const aHistory = await openHistory(a.page);
    await expect(aHistory).toHaveCount(1);
    await expect(aHistory.first()).toContainText(b.shown);
    await expect(aHistory.first()).toContainText('Completed');
    await expect(aHistory.first()).toContainText(/0:0[2-9]|0:[1-5]\d/);
    await expect(aHistory.first().getByRole('button', { name: `Incoming call from ${b.shown}, Completed` })).toBeVisible();

    const bHistory = await openHistory(b.page);
    await expect(bHistory).toHaveCount(1);
    await expect(bHistory.first()).toContainText(a.shown);
    await expect(bHistory.first()).toContainText('Completed');
    await expect(bHistory.first()).toContainText(/0:0[2-9]|0:[1-5]\d/);
    await expect(bHistory.first().getByRole('button', { name: `Outgoing call to ${a.shown}, Completed` })).toBeVisible();
  });
}

test('A rejects B’s call, then stops receiving and misses the next one; voicemail takes both, and both histories say so', async ({ launchWithMicrophone }) => {
  test.setTimeout(120_000);
  const [a, b] = await Promise.all([
    newParty(launchWithMicrophone, { name: 'Callee Cy', frequency: 660, pattern: '213' }),
    newParty(launchWithMicrophone, { name: 'Caller Di', frequency: 440, pattern: '305' }),
  ]);

  // Rejected: A's voicemail takes B's call (docs/calls.md#voicemail).
  await startReceiving(a);
  await dial(b, a);
  const bar = b.page.getByRole('region', { name: 'Active call' });
  await expect(bar).toContainText('Ringing...');
  const incoming = a.page.getByRole('region', { name: 'Incoming Call' });
  await expect(incoming).toContainText(b.shown);
  await incoming.getByRole('button', { name: 'Reject' }).click();
  await expect(a.page.getByText('Call rejected')).toBeVisible();
  await expect(incoming).toBeHidden();
  await expect(a.page.getByText('Ready to receive incoming calls')).toBeVisible();
  const voicemail = bar.getByRole('note', { name: 'Answered by' });
  await expect(voicemail).toHaveText('Voicemail: leave a message after the beep');
  await bar.getByRole('button', { name: 'End call' }).click();
  await expect(bar).toBeHidden();

  // Missed: A stops receiving, so B's next call finds nobody taking calls, and voicemail answers.
  const stopsBefore = a.sentCount('receiver.stop');
  await a.page.getByRole('button', { name: 'Stop Receiving' }).click();
  await expect(a.page.getByText('Call receiving is turned off')).toBeVisible();
  await expect(a.page.getByText('Call receiving stopped')).toBeVisible();
  await expect.poll(() => a.sentCount('receiver.stop')).toBeGreaterThan(stopsBefore);
  await dial(b, a);
  await expect(voicemail).toHaveText('Voicemail: leave a message after the beep');
  await expect(a.page.getByRole('region', { name: 'Incoming Call' })).toBeHidden();
  await bar.getByRole('button', { name: 'End call' }).click();
  await expect(bar).toBeHidden();

  // A: both calls from B are missed ones, newest first (B said nothing after the beep: no message).
  // B: both went to voicemail.
  const aHistory = await openHistory(a.page);
  await expect(aHistory).toHaveCount(2);
  for (const entry of [aHistory.nth(0), aHistory.nth(1)]) {
    await expect(entry).toContainText(b.shown);
    await expect(entry).toContainText('Missed');
    await expect(entry).toContainText('0:00');
    await expect(entry.getByRole('button', { name: `Incoming call from ${b.shown}, Missed` })).toBeVisible();
  }

  const bHistory = await openHistory(b.page);
  await expect(bHistory).toHaveCount(2);
  for (const entry of [bHistory.nth(0), bHistory.nth(1)]) {
    await expect(entry).toContainText(a.shown);
    await expect(entry.getByRole('button', { name: `Outgoing call to ${a.shown}, Voicemail` })).toBeVisible();
  }
});
