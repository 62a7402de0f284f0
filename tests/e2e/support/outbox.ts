import type { Page } from '@playwright/test';
import { expect, request } from '@playwright/test';

interface OutboxMessage {
  to: string;
  subject: string;
  links: string[];
}

/**
 * Waits for the newest kept mail to `to` with `subject` (the server keeps mail in its outbox in
 * tests). Read without the browser context's X-Forwarded-For: the outbox answers only requests
 * straight from this machine, which a forwarded one is not.
 */
export async function mailTo(page: Page, to: string, subject: string): Promise<OutboxMessage> {
  const outbox = await request.newContext({ baseURL: new URL(page.url()).origin });
  try {
    let found: OutboxMessage | undefined;
    await expect
      .poll(async () => {
        const response = await outbox.get('/api/v1/dev/outbox');
        const { messages } = (await response.json()) as { messages: OutboxMessage[] };
        found = messages.find((message) => message.to === to && message.subject === subject);
        return Boolean(found);
      }, { message: `mail "${subject}" to ${to}` })
      .toBe(true);
    return found!;
  } finally {
    await outbox.dispose();
  }
}
