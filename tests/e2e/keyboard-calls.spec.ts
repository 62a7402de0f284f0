import type { Page } from '@playwright/test';
import { expect, test, type LaunchWithMicrophone } from './fixtures';
import { expectAccessible } from './support/axe';
import { tabTo } from './support/keyboard';
import { signUpWithANumber, type PersonWithANumber } from './support/people';
import { writeSineWav } from './support/wav';

/**
 * Issue 22: a call placed, answered and ended with the keyboard alone (Tab, arrows, Enter, Space),
 * focus showing at every stop on the way, the call's states announced in live regions, and the
 * ringing drawn without motion for someone who asks for less (prefers-reduced-motion).
 *
 * Setting the two people up (sign-up, renting a number) uses the ordinary helpers; from the dialer
 * and the Call Settings page on, nothing is clicked. The numbers come from area codes no other
 * spec uses (206, 404).
 */

/** A new person whose fake microphone plays a looping tone and who asks for less motion, owning one number, on the dialer. */
async function newParty(launchWithMicrophone: LaunchWithMicrophone, { name, frequency, pattern }: { name: string; frequency: number; pattern: string }): Promise<PersonWithANumber> {
  const { page } = await launchWithMicrophone(writeSineWav({ frequency, seconds: 10, silenceSeconds: 0 }), {
    loop: true,
    contextOptions: { reducedMotion: 'reduce' },
  });
  const person = await signUpWithANumber(page, name, pattern);
  await page.goto('/dialer');
  await expect(page.getByRole('heading', { level: 1, name: 'Dialer' })).toBeVisible();
  return person;
}

/** Animations that repeat forever and are running now: the ringing pulse, spinners. */
function endlessAnimations(page: Page) {
  return page.evaluate(() => document.getAnimations().filter((animation) => animation.playState === 'running' && animation.effect?.getComputedTiming().iterations === Infinity).length);
}

test('a call is placed, answered and ended with the keyboard alone', async ({ launchWithMicrophone }) => {
  test.setTimeout(150_000);
  const [callee, caller] = await Promise.all([
    newParty(launchWithMicrophone, { name: 'Keyboard Callee', frequency: 660, pattern: '206' }),
    newParty(launchWithMicrophone, { name: 'Keyboard Caller', frequency: 440, pattern: '404' }),
  ]);

  // The callee goes to Call Settings → Call Receiver and turns receiving on: Tab, arrow, Enter.
  const a = callee.page;
  await tabTo(a, a.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Call Settings', exact: true }));
  await a.keyboard.press('Enter');
  await expect(a.getByRole('heading', { level: 1, name: 'Call Settings' })).toBeVisible();
  await tabTo(a, a.getByRole('tab', { name: 'Voice Changer' }));
  await a.keyboard.press('ArrowRight');
  await expect(a.getByRole('tab', { name: 'Call Receiver' })).toHaveAttribute('aria-selected', 'true');
  const receive = a.getByRole('button', { name: 'Receive Calls' });
  await tabTo(a, receive);
  const startsBefore = callee.sentCount('receiver.start');
  await a.keyboard.press('Enter');
  await expect(a.getByText('Ready to receive incoming calls')).toBeVisible();
  await expect(a.getByRole('button', { name: 'Stop Receiving' })).toBeFocused();
  await expect.poll(() => callee.sentCount('receiver.start')).toBeGreaterThan(startsBefore);

  // The caller types the number and presses the Call button with Space.
  const b = caller.page;
  await tabTo(b, b.getByLabel('Phone number'));
  await b.keyboard.type(callee.shown.replace(/\D/g, '').slice(1));
  await tabTo(b, b.getByRole('button', { name: 'Call', exact: true }));
  await b.keyboard.press('Space');
  const bar = b.getByRole('region', { name: 'Active call' });
  await expect(bar).toContainText('Ringing...');
  await expect(b.getByRole('status').filter({ hasText: `Ringing ${callee.shown}` })).toHaveCount(1);

  // The callee's tab rings: announced, drawn without motion, and it passes axe.
  const incoming = a.getByRole('region', { name: 'Incoming Call' });
  await expect(incoming).toContainText(caller.shown);
  await expect(a.getByRole('status').filter({ hasText: `Incoming call from ${caller.shown}` })).toHaveCount(1);
  await expect.poll(() => endlessAnimations(a)).toBe(0);
  await a.emulateMedia({ reducedMotion: 'no-preference' });
  await expect.poll(() => endlessAnimations(a)).toBeGreaterThan(0);
  await a.emulateMedia({ reducedMotion: 'reduce' });
  await expect.poll(() => endlessAnimations(a)).toBe(0);
  await expectAccessible(a, 'the incoming call');

  // Answered with Enter: focus moves into the On Call card rather than being lost with the ringing one.
  await tabTo(a, incoming.getByRole('button', { name: 'Answer' }));
  await a.keyboard.press('Enter');
  const onCall = a.getByRole('region', { name: 'On Call' });
  await expect(onCall).toBeVisible();
  await expect(onCall).toBeFocused();
  await expect(a.getByRole('status').filter({ hasText: `Connected to ${caller.shown}` })).toHaveCount(1);
  await expect(b.getByRole('status').filter({ hasText: `Connected to ${callee.shown}` })).toHaveCount(1);
  await expect(bar).toContainText(/\d+:\d\d/);
  await expect(onCall.getByRole('button', { name: 'Mute' })).toBeEnabled();
  await expectAccessible(a, 'a received call in progress');
  await expectAccessible(b, 'a placed call in progress');

  // The caller reaches End call in the bar with Tab and presses Enter.
  await tabTo(b, bar.getByRole('button', { name: 'End call' }));
  await b.keyboard.press('Enter');
  await expect(bar).toBeHidden();
  await expect(b.getByText('Call ended', { exact: true })).toBeVisible();
  await expect(b.getByRole('status').filter({ hasText: 'The call has ended' })).toHaveCount(1);
  await expect(onCall).toBeHidden();
  await expect(a.getByRole('status').filter({ hasText: 'The call has ended' })).toHaveCount(1);
  await expect(a.getByText('Ready to receive incoming calls')).toBeVisible();
});
