import { desc } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../db/client';
import { AppError } from '../http/app-error';
import { noSuchRoute } from '../static-site/serve-web-app';
import { fromThisMachine } from './from-this-machine';
import { mailOutbox } from './schema';
import { escapeHtml } from '../http/escape-html';

const outboxMessageSchema = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  links: z.array(z.string()),
  createdAt: z.iso.datetime(),
});

/**
 * A development aid, never registered in production: the mail that was kept instead of sent,
 * password-reset links included. Only a request from this machine itself sees it; to anyone else
 * it does not exist.
 */
export const outboxRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  // The answer of an unknown API route, the page's path included: nothing says the outbox is here.
  app.addHook('onRequest', async (request) => {
    if (!fromThisMachine(request)) throw new AppError(404, noSuchRoute.code, noSuchRoute.message);
  });

  const latest = async () => {
    const rows = await db.select().from(mailOutbox).orderBy(desc(mailOutbox.createdAt)).limit(100);
    return rows.map((row) => ({ id: row.id, to: row.to, subject: row.subject, text: row.text, links: row.links, createdAt: row.createdAt.toISOString() }));
  };

  app.get('/api/v1/dev/outbox', { config: { public: true }, schema: { response: { 200: z.object({ messages: z.array(outboxMessageSchema) }) } } }, async () => ({
    messages: await latest(),
  }));

  app.get('/dev/outbox', async (_request, reply) => {
    const messages = await latest();
    const items = messages
      .map(
        (message) => `<article>
  <h2>${escapeHtml(message.subject)}</h2>
  <p>To ${escapeHtml(message.to)} · ${escapeHtml(message.createdAt)}</p>
  <pre>${escapeHtml(message.text)}</pre>
  <ul>${message.links.map((link) => `<li><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></li>`).join('')}</ul>
</article>`,
      )
      .join('\n');
    return reply.type('text/html; charset=utf-8').send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Voxline outbox</title></head>
<body><h1>Outbox</h1><p>Mail kept instead of sent (no SMTP_URL). Newest first.</p>
${items || '<p>No messages yet.</p>'}</body></html>`);
  });
};
