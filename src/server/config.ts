import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_SOUND_TEST_NUMBER } from '../common/calls';
import { toE164 } from '../common/phone';

const port = z.coerce
  .number({ error: 'must be a whole number between 0 and 65535' })
  .int('must be a whole number between 0 and 65535')
  .min(0, 'must be a whole number between 0 and 65535')
  .max(65535, 'must be a whole number between 0 and 65535');

const postgresUrl = z
  .string()
  .regex(/^postgres(ql)?:\/\/.+/, 'must be a postgres:// or postgresql:// URL');

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' });

// Vonage calls Voxline's webhooks back, so it needs the public address too, and signs them.
const vonageRequired = ['VONAGE_API_KEY', 'VONAGE_API_SECRET', 'VONAGE_APPLICATION_ID', 'VONAGE_PRIVATE_KEY', 'VONAGE_SIGNATURE_SECRET', 'PUBLIC_URL'] as const;

function isReadableFile(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.R_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Every environment variable Voxline reads, with its default. .env.example mirrors this list. */
export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test'], {
    error: 'must be one of development, production, test',
  }).default('development'),
  HOST: z.string().min(1, 'must not be empty').default('0.0.0.0'),
  PORT: port.default(3000),
  DATA_DIR: z.string().min(1, 'must not be empty').default('./data'),
  DATABASE_URL: postgresUrl.optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
    error: 'must be one of fatal, error, warn, info, debug, trace, silent',
  }).default('info'),
  PUBLIC_URL: httpUrl.optional(),
  AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  REQUIRE_EMAIL_VERIFICATION: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default('false')
    .transform((value) => value === 'true'),
  SMTP_URL: z.string().regex(/^smtps?:\/\/.+/, 'must be an smtp:// or smtps:// URL').optional(),
  MAIL_FROM: z.string().min(3, 'must be an address such as "Voxline <no-reply@example.com>"').default('Voxline <no-reply@voxline.localhost>'),
  TELEPHONY: z.enum(['local', 'vonage'], { error: 'must be local or vonage' }).default('local'),
  VONAGE_API_KEY: z.string().optional(),
  VONAGE_API_SECRET: z.string().optional(),
  VONAGE_APPLICATION_ID: z.string().optional(),
  VONAGE_PRIVATE_KEY: z.string().optional(),
  VONAGE_SIGNATURE_SECRET: z.string().optional(),
  VONAGE_CALLBACK_URL: httpUrl.optional(),
  VONAGE_REST_URL: httpUrl.default('https://rest.nexmo.com'),
  VONAGE_API_URL: httpUrl.default('https://api.nexmo.com'),
  SOUND_TEST_NUMBER: z
    .string()
    .refine((value) => toE164(value) !== null, 'must be a valid phone number in international form, e.g. +14155550100')
    .transform((value) => toE164(value)!)
    .default(DEFAULT_SOUND_TEST_NUMBER),
  REDIS_URL: z.string().regex(/^rediss?:\/\/.+/, 'must be a redis:// or rediss:// URL').optional(),
  TRUST_PROXY: z
    .string()
    .regex(/^(true|false|[\da-fA-F.:/]+(,[\da-fA-F.:/]+)*)$/, 'must be true, false, or proxy addresses separated by commas')
    .default('false')
    .transform((value): boolean | string[] => (value === 'true' ? true : value === 'false' ? false : value.split(','))),
  SIMULATED_INCOMING_RATE: z.coerce
    .number({ error: 'must be a number from 0 to 1' })
    .min(0, 'must be a number from 0 to 1')
    .max(1, 'must be a number from 0 to 1')
    .default(0.05),
  PAYMENTS: z.enum(['sandbox', 'paystack'], { error: 'must be sandbox or paystack' }).default('sandbox'),
  PAYSTACK_SECRET_KEY: z.string().regex(/^sk_(test|live)_\w+$/, 'must be a Paystack secret key (sk_test_… or sk_live_…)').optional(),
  PAYSTACK_API_URL: httpUrl.default('https://api.paystack.co'),
}).superRefine((env, ctx) => {
  if (env.NODE_ENV === 'production' && !env.AUTH_SECRET) {
    ctx.addIssue({ code: 'custom', path: ['AUTH_SECRET'], message: 'is required in production (at least 32 random characters)' });
  }
  if (env.TELEPHONY === 'vonage') {
    for (const name of vonageRequired) {
      if (!env[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'is required when TELEPHONY=vonage' });
    }
    const key = env.VONAGE_PRIVATE_KEY;
    if (key && !key.includes('-----BEGIN') && !isReadableFile(key)) {
      ctx.addIssue({ code: 'custom', path: ['VONAGE_PRIVATE_KEY'], message: 'must be the PEM text of the private key or the path of a readable file' });
    }
  }
  if (env.PAYMENTS === 'paystack' && !env.PAYSTACK_SECRET_KEY) {
    ctx.addIssue({ code: 'custom', path: ['PAYSTACK_SECRET_KEY'], message: 'is required when PAYMENTS=paystack' });
  }
});

/** Their values never appear in an error message (which ends up in logs). */
const SECRET_VARIABLES = new Set(['AUTH_SECRET', 'VONAGE_API_SECRET', 'VONAGE_PRIVATE_KEY', 'VONAGE_SIGNATURE_SECRET', 'PAYSTACK_SECRET_KEY']);

export type Config = z.infer<typeof configSchema> & {
  dataDir: string;
  publicUrl: string;
  /** Where the telephony provider reaches this server: VONAGE_CALLBACK_URL, else the public address. */
  providerCallbackUrl: string;
};

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Parses the environment; throws a ConfigError whose message is one line naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const result = configSchema.safeParse(cleaned);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? 'environment');
      const given = env[name];
      const shown = given === undefined || SECRET_VARIABLES.has(name) ? '' : ` (got "${given}")`;
      return `${name} ${issue.message}${shown}`;
    });
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  const parsed = result.data;
  const publicUrl = parsed.PUBLIC_URL ?? `http://localhost:${parsed.PORT}`;
  return {
    ...parsed,
    dataDir: path.resolve(parsed.DATA_DIR),
    publicUrl,
    providerCallbackUrl: parsed.VONAGE_CALLBACK_URL ?? publicUrl,
  };
}
