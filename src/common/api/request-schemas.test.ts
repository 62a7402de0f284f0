import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import * as realtimeClientMessages from '../realtime-client-messages';
import * as account from './account';
import * as admin from './admin';
import * as auth from './auth';
import * as calls from './calls';
import * as contacts from './contacts';
import * as numbers from './numbers';
import * as payments from './payments';
import * as preferences from './preferences';
import * as swiftPayment from './swift-payment';
import * as voiceSettings from './voice-settings';
import * as vonagePhone from './vonage-phone';

// What a client sends: bodies, query strings, path parameters, compatibility payloads, socket messages.
const REQUEST_SCHEMA_NAME = /(Body|Query|Params|Payload|Request)Schema$|^clientMessageSchema$/;

const modules = { account, admin, auth, calls, contacts, numbers, payments, preferences, swiftPayment, voiceSettings, vonagePhone, realtimeClientMessages };

const requestSchemas = Object.entries(modules).flatMap(([moduleName, exports]) =>
  Object.entries(exports as Record<string, unknown>)
    .filter(([name]) => REQUEST_SCHEMA_NAME.test(name))
    .map(([name, schema]) => ({ name: `${moduleName}.${name}`, schema: schema as z.ZodType })),
);

// Kinds of schema that hold no string a client chooses freely.
const WITHOUT_TEXT = new Set(['enum', 'literal', 'number', 'boolean', 'null', 'undefined', 'unknown', 'transform']);

/** Every string schema inside `schema` that a value sent by a client reaches, with where it sits. */
function stringsIn(schema: z.ZodType, path: string): { path: string; schema: z.ZodType }[] {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  switch (def.type) {
    case 'string':
      return [{ path, schema }];
    case 'object':
      return Object.entries(def.shape as Record<string, z.ZodType>).flatMap(([key, field]) => stringsIn(field, `${path}.${key}`));
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
      return stringsIn(def.innerType as z.ZodType, path);
    case 'array':
      return stringsIn(def.element as z.ZodType, `${path}[]`);
    case 'union':
      return (def.options as z.ZodType[]).flatMap((option) => stringsIn(option, path));
    case 'pipe': {
      // What a string field pipes into (an enum, an email, a URL) only sees what the field let through.
      const input = def.in as z.ZodType;
      return input._zod.def.type === 'string' ? stringsIn(input, path) : [...stringsIn(input, path), ...stringsIn(def.out as z.ZodType, path)];
    }
    default:
      if (!WITHOUT_TEXT.has(def.type)) throw new Error(`${path}: a ${def.type} schema; teach stringsIn where its strings are`);
      return [];
  }
}

describe('request schemas', () => {
  it('are all found: bodies, queries, params, payloads and socket messages', () => {
    const names = requestSchemas.map(({ name }) => name);
    for (const expected of [
      'auth.signUpBodySchema',
      'account.updateAccountBodySchema',
      'contacts.contactsQuerySchema',
      'contacts.contactIdParamsSchema',
      'payments.paymentReferenceParamsSchema',
      'admin.adminCallParamsSchema',
      'vonagePhone.provisionNumberPayloadSchema',
      'realtimeClientMessages.clientMessageSchema',
    ]) {
      expect(names).toContain(expected);
    }
  });

  const strings = requestSchemas.flatMap(({ name, schema }) => stringsIn(schema, name));

  it.each(strings.map(({ path, schema }) => [path, schema] as const))('%s refuses NUL and other control characters, saying so', (_path, schema) => {
    for (const value of ['a\u0000b', 'a\u001bb', 'a\u0085b', 'a\u2028b']) {
      const result = schema.safeParse(value);
      expect(result.success).toBe(false);
      expect(result.error!.issues.map((issue) => issue.message).join('\n')).toMatch(/ must not contain control characters$/m);
    }
  });
});
