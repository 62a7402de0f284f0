import type { APIRequestContext } from '@playwright/test';
import { expect } from '@playwright/test';

interface OutboxMessage {
  to: string;
  subject: string;
  links: string[];
}

/** Waits for the newest kept mail to `to` with `subject` (the server keeps mail in its outbox in tests). */
export async function mailTo(request: APIRequestContext, to: string, subject: string): Promise<OutboxMessage> {
  let found: OutboxMessage | undefined;
  await expect
    .poll(async () => {
      const response = await request.get('/api/v1/dev/outbox');
      const { messages } = (await response.json()) as { messages: OutboxMessage[] };
      found = messages.find((message) => message.to === to && message.subject === subject);
      return Boolean(found);
    }, { message: `mail "${subject}" to ${to}` })
    .toBe(true);
  return found!;
}
