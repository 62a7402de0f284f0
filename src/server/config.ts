import path from 'node:path';
import { z } from 'zod';

const port = z.coerce
  .number({ error: 'must be a whole number between 0 and 65535' })
  .int('must be a whole number between 0 and 65535')
  .min(0, 'must be a whole number between 0 and 65535')
  .max(65535, 'must be a whole number between 0 and 65535');

const postgresUrl = z
  .string()
  .regex(/^postgres(ql)?:\/\/.+/, 'must be a postgres:// or postgresql:// URL');

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
  PUBLIC_URL: z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' }).optional(),
  AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  REQUIRE_EMAIL_VERIFICATION: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default('false')
    .transform((value) => value === 'true'),
  SMTP_URL: z.string().regex(/^smtps?:\/\/.+/, 'must be an smtp:// or smtps:// URL').optional(),
  MAIL_FROM: z.string().min(3, 'must be an address such as "Voxline <no-reply@example.com>"').default('Voxline <no-reply@voxline.localhost>'),
}).refine((env) => env.NODE_ENV !== 'production' || env.AUTH_SECRET, {
  path: ['AUTH_SECRET'],
  message: 'is required in production (at least 32 random characters)',
});

export type Config = z.infer<typeof configSchema> & { dataDir: string; publicUrl: string };

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
      return `${name} ${issue.message}${given === undefined ? '' : ` (got "${given}")`}`;
    });
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  const parsed = result.data;
  return {
    ...parsed,
    dataDir: path.resolve(parsed.DATA_DIR),
    publicUrl: parsed.PUBLIC_URL ?? `http://localhost:${parsed.PORT}`,
  };
}
