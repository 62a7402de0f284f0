import type { Page } from '@playwright/test';
import { expect } from '@playwright/test';

interface OutboxMessage {
  to: string;
  subject: string;
  links: string[];
}

/**
 * Waits for the newest kept mail to `to` with `subject` (the server keeps mail in its outbox in
 * tests). Read with Node's own fetch, straight to the loopback address: Playwright's request
 * contexts carry the test's X-Forwarded-For, and the outbox answers only requests from this
 * machine that no proxy passed on.
 */
export async function mailTo(page: Page, to: string, subject: string): Promise<OutboxMessage> {
  const outbox = new URL('/api/v1/dev/outbox', page.url());
  outbox.hostname = '127.0.0.1';
  let found: OutboxMessage | undefined;
  await expect
    .poll(async () => {
      const response = await fetch(outbox);
      const { messages } = (await response.json()) as { messages: OutboxMessage[] };
      found = messages.find((message) => message.to === to && message.subject === subject);
      return Boolean(found);
    }, { message: `mail "${subject}" to ${to}` })
    .toBe(true);
  return found!;
}
