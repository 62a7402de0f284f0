import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { okSchema } from '../../common/api/auth';
import {
  contactIdParamsSchema,
  contactSchema,
  contactsQuerySchema,
  contactsSchema,
  createContactBodySchema,
  updateContactBodySchema,
} from '../../common/api/contacts';
import type { Auth } from '../auth/auth';
import { requireUser } from '../auth/current-user';
import type { Database } from '../db/client';
import { createContact, deleteContact, listContacts, updateContact } from './service';

export const contactsRoutes: FastifyPluginAsyncZod<{ auth: Auth; db: Database }> = async (app, { auth, db }) => {
  app.get('/contacts', { schema: { querystring: contactsQuerySchema, response: { 200: contactsSchema } } }, async (request, reply) => {
    const user = await requireUser(auth, request, reply);
    return { contacts: await listContacts(db, user.id, request.query.q) };
  });

  app.post('/contacts', { config: { sync: ['contacts'] }, schema: { body: createContactBodySchema, response: { 201: contactSchema } } }, async (request, reply) => {
    const user = await requireUser(auth, request, reply);
    return reply.code(201).send(await createContact(db, user.id, request.body));
  });

  app.patch(
    '/contacts/:id',
    { config: { sync: ['contacts'] }, schema: { params: contactIdParamsSchema, body: updateContactBodySchema, response: { 200: contactSchema } } },
    async (request, reply) => {
      const user = await requireUser(auth, request, reply);
      return updateContact(db, user.id, request.params.id, request.body);
    },
  );

  app.delete('/contacts/:id', { config: { sync: ['contacts'] }, schema: { params: contactIdParamsSchema, response: { 200: okSchema } } }, async (request, reply) => {
    const user = await requireUser(auth, request, reply);
    await deleteContact(db, user.id, request.params.id);
    return { ok: true as const };
  });
};
