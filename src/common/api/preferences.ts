import { z } from 'zod/mini';

/** docs/product.md §3 preferences form, with its defaults. */
export const preferencesSchema = z.strictObject({
  darkMode: z.boolean({ error: 'darkMode must be true or false' }),
  notifications: z.boolean({ error: 'notifications must be true or false' }),
  callHistory: z.boolean({ error: 'callHistory must be true or false' }),
  dataUsage: z.boolean({ error: 'dataUsage must be true or false' }),
  autoAnswer: z.boolean({ error: 'autoAnswer must be true or false' }),
  /** Record every call from its answer (Premium and Platinum, docs/calls.md#recording). */
  recordCalls: z.boolean({ error: 'recordCalls must be true or false' }),
});

export const defaultPreferences: Preferences = {
  darkMode: true,
  notifications: true,
  callHistory: true,
  dataUsage: false,
  autoAnswer: false,
  recordCalls: false,
};

export const updatePreferencesBodySchema = z.partial(preferencesSchema).check(z.refine((body) => Object.keys(body).length > 0, 'Nothing to update'));

export type Preferences = z.infer<typeof preferencesSchema>;
