import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from './app-error';
import { readPayload } from './read-payload';

const schema = z.object({ country: z.string().length(2), pattern: z.string().optional() });

describe('readPayload', () => {
  it('answers the parsed payload, a missing one read as {}', () => {
    expect(readPayload(schema, { country: 'US', pattern: '415' })).toEqual({ country: 'US', pattern: '415' });
    expect(readPayload(z.object({ userId: z.string().optional() }), undefined)).toEqual({});
  });

  it('refuses a bad payload with a 400 naming its first bad field under payload', () => {
    let thrown: unknown;
    try {
      readPayload(schema, { country: 'USA' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect(thrown).toMatchObject({ statusCode: 400, code: 'invalid_input', field: 'payload.country' });
    expect((thrown as AppError).message).toMatch(/^payload\.country: /);
  });
});
