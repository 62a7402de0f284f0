import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_SOUND_TEST_NUMBER } from '../common/calls';
import { toE164 } from '../common/phone';
import { estimateSecretEntropy, MIN_SECRET_BITS } from './secret-entropy';

const port = z.coerce
  .number({ error: 'must be a whole number between 0 and 65535' })
  .int('must be a whole number between 0 and 65535')
  .min(0, 'must be a whole number between 0 and 65535')
  .max(65535, 'must be a whole number between 0 and 65535');

const postgresUrl = z
  .string()
  .regex(/^postgres(ql)?:\/\/.+/, 'must be a postgres:// or postgresql:// URL');

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' });

const flag = z
  .enum(['true', 'false'], { error: 'must be true or false' })
  .default('false')
  .transform((value) => value === 'true');

/** A comma-separated list of URLs with one of the schemes given, as a list. */
function urlList(schemes: string[]) {
  const pattern = new RegExp(`^(${schemes.join('|')}):[^\\s,]+(,(${schemes.join('|')}):[^\\s,]+)*$`);
  return z
    .string()
    .regex(pattern, `must be ${schemes.map((scheme) => `${scheme}:`).join(' or ')} URLs separated by commas`)
    .transform((value) => value.split(','));
}

/** "40000-40999": the inclusive UDP port range of the instance's WebRTC peers. */
const portRange = z
  .string()
  .regex(/^\d{1,5}-\d{1,5}$/, 'must be a range of UDP ports such as 40000-40999')
  .transform((value) => value.split('-').map(Number) as [number, number])
  // werift needs two ports at least: it probes one before it binds another.
  .refine(([low, high]) => low >= 1024 && high <= 65535 && low < high, 'must be a range of at least two UDP ports between 1024 and 65535, the lower first');

const retentionIntervalRule = 'must be 0 (off) or a whole number of milliseconds from 1000 to 2147483647';

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
  // Reachable from this machine only unless HOST says otherwise (a deployment sets 0.0.0.0).
  HOST: z.string().min(1, 'must not be empty').default('127.0.0.1'),
  PORT: port.default(3000),
  DATA_DIR: z.string().min(1, 'must not be empty').default('./data'),
  DATABASE_URL: postgresUrl.optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
    error: 'must be one of fatal, error, warn, info, debug, trace, silent',
  }).default('info'),
  // Unset: pretty in development on a terminal, JSON otherwise (src/server/logging/log-format.ts).
  LOG_FORMAT: z.enum(['json', 'pretty'], { error: 'must be json or pretty' }).optional(),
  PUBLIC_URL: httpUrl.optional(),
  AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  REQUIRE_EMAIL_VERIFICATION: flag,
  SMTP_URL: z.string().regex(/^smtps?:\/\/.+/, 'must be an smtp:// or smtps:// URL').optional(),
  MAIL_FROM: z.string().min(3, 'must be an address such as "Voxline <no-reply@example.com>"').default('Voxline <no-reply@voxline.localhost>'),
  // Where Settings › Support sends users' requests; unset, support@ the domain MAIL_FROM sends from.
  SUPPORT_EMAIL: z.email({ error: 'must be an email address such as support@example.com' }).optional(),
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
  // The only way to be an administrator (docs/operations.md#admin-view): these addresses, in any case.
  ADMIN_EMAILS: z
    .string()
    .default('')
    .transform((value) => value.split(',').map((email) => email.trim().toLowerCase()).filter((email) => email !== ''))
    .pipe(z.array(z.email({ error: 'must be email addresses separated by commas' }))),
  SIMULATED_INCOMING_RATE: z.coerce
    .number({ error: 'must be a number from 0 to 1' })
    .min(0, 'must be a number from 0 to 1')
    .max(1, 'must be a number from 0 to 1')
    .default(0.05),
  // Readiness (GET /api/v1/health/ready) answers 503 from this many calls on, so that a balancer
  // sends new calls to another instance, and priority reception refuses by plan from 90 % of it.
  // 20 is what one core of this project's machine carries as Opus calls between users through the
  // voice changer with p99 added latency under 10 ms (bench/load, docs/benchmarks.md "What a core
  // holds"); a deployment sets it from bench/load on its own machines (docs/operations.md).
  MAX_CALLS_PER_INSTANCE: z.coerce
    .number({ error: 'must be a whole number of at least 1' })
    .int('must be a whole number of at least 1')
    .min(1, 'must be a whole number of at least 1')
    .default(20),
  // After SIGTERM the instance keeps its calls up this long at most before ending them
  // (docs/deploy.md#draining); 0 ends them at once.
  DRAIN_SECONDS: z.coerce
    .number({ error: 'must be a whole number of seconds, 0 or more' })
    .int('must be a whole number of seconds, 0 or more')
    .min(0, 'must be a whole number of seconds, 0 or more')
    .default(900),
  // How often the retention job (docs/operations.md#scheduled-jobs) deletes what the plans no longer
  // keep, on one instance at a time; 0 turns the job off on this instance.
  // The top is the longest a Node timer waits (about 24.8 days).
  RETENTION_INTERVAL_MS: z.coerce
    .number({ error: retentionIntervalRule })
    .int(retentionIntervalRule)
    .refine((value) => value === 0 || (value >= 1000 && value <= 2_147_483_647), retentionIntervalRule)
    .default(3_600_000),
  // Prometheus metrics (docs/operations.md#metrics), never public by default: on a port of their
  // own (unset: none), and at /metrics on PORT only for a request bearing METRICS_TOKEN.
  METRICS_PORT: port.optional(),
  METRICS_HOST: z.string().min(1, 'must not be empty').default('127.0.0.1'),
  METRICS_TOKEN: z.string().regex(/^[\x21-\x7e]{16,}$/, 'must be at least 16 printable ASCII characters, without spaces: make one with `openssl rand -hex 32`').optional(),
  // WebRTC media (docs/calls.md#media, docs/deploy.md#webrtc-media). Off: browsers use the media websocket.
  WEBRTC: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default('true')
    .transform((value) => value === 'true'),
  WEBRTC_PORTS: portRange.optional(),
  WEBRTC_PUBLIC_ADDRESS: z.union([z.ipv4(), z.ipv6()], { error: 'must be an IPv4 or IPv6 address' }).optional(),
  STUN_URLS: urlList(['stun', 'stuns']).optional(),
  TURN_URLS: urlList(['turn', 'turns']).optional(),
  TURN_SECRET: z.string().min(16, 'must be at least 16 characters (the static-auth-secret of the TURN server)').optional(),
  PAYMENTS: z.enum(['sandbox', 'paystack'], { error: 'must be sandbox or paystack' }).default('sandbox'),
  PAYSTACK_SECRET_KEY: z.string().regex(/^sk_(test|live)_\w+$/, 'must be a Paystack secret key (sk_test_… or sk_live_…)').optional(),
  PAYSTACK_API_URL: httpUrl.default('https://api.paystack.co'),
  UNSAFE_ALLOW_SANDBOX_PAYMENTS: flag,
  UNSAFE_ALLOW_LOCAL_TELEPHONY: flag,
  // Where recordings and voicemail are kept (docs/deploy.md#storage): files under DATA_DIR, or an S3 bucket.
  STORAGE: z.enum(['local', 's3'], { error: 'must be local or s3' }).default('local'),
  S3_BUCKET: z.string().min(1, 'must not be empty').optional(),
  S3_REGION: z.string().min(1, 'must not be empty').default('us-east-1'),
  S3_ENDPOINT: httpUrl.optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: flag,
}).superRefine((env, ctx) => {
  if (env.STORAGE === 's3' && !env.S3_BUCKET) ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: 'is required when STORAGE=s3' });
  if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
    ctx.addIssue({ code: 'custom', path: [env.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'], message: 'must be set together with the other S3 key (or neither, to use the AWS default credentials)' });
  }
  if (env.NODE_ENV === 'production') refuseUnsafeProductionSettings(env, ctx);
  if (env.TELEPHONY === 'vonage') {
    for (const name of vonageRequired) {
      if (!env[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'is required when TELEPHONY=vonage' });
    }
    const key = env.VONAGE_PRIVATE_KEY;
    if (key && !key.includes('-----BEGIN') && !isReadableFile(key)) {
      ctx.addIssue({ code: 'custom', path: ['VONAGE_PRIVATE_KEY'], message: 'must be the PEM text of the private key or the path of a readable file' });
    }
  }
  if (env.TURN_URLS && !env.TURN_SECRET) {
    ctx.addIssue({ code: 'custom', path: ['TURN_SECRET'], message: 'is required when TURN_URLS is set: the static-auth-secret of the TURN server, from which each browser gets short-lived credentials' });
  }
  if (env.METRICS_PORT !== undefined && env.METRICS_PORT !== 0 && env.METRICS_PORT === env.PORT) {
    ctx.addIssue({ code: 'custom', path: ['METRICS_PORT'], message: 'must differ from PORT: the metrics get a port of their own (or set METRICS_TOKEN instead, to serve them at /metrics on PORT)' });
  }
  if (env.PAYMENTS === 'paystack' && !env.PAYSTACK_SECRET_KEY) {
    ctx.addIssue({ code: 'custom', path: ['PAYSTACK_SECRET_KEY'], message: 'is required when PAYMENTS=paystack' });
  }
});

type ParsedEnvironment = z.infer<typeof configSchema>;

/** An issue whose message already says what was set, so the value is not repeated after it. */
const VALUE_IN_MESSAGE = { valueInMessage: true };

/** Settings that are fine on a developer's machine but expose users or money on a public server. */
function refuseUnsafeProductionSettings(env: ParsedEnvironment, ctx: z.RefinementCtx) {
  if (!env.AUTH_SECRET) {
    ctx.addIssue({ code: 'custom', path: ['AUTH_SECRET'], message: 'is required in production: make one with `openssl rand -base64 32` and set the same on every instance' });
  } else {
    const bits = Math.floor(estimateSecretEntropy(env.AUTH_SECRET));
    if (bits < MIN_SECRET_BITS) {
      ctx.addIssue({
        code: 'custom',
        path: ['AUTH_SECRET'],
        message: `is too easy to guess for production (about ${bits} bits of entropy, ${MIN_SECRET_BITS} needed): make one with \`openssl rand -base64 32\``,
      });
    }
  }
  if (!env.PUBLIC_URL) {
    ctx.addIssue({ code: 'custom', path: ['PUBLIC_URL'], message: 'is required in production: set it to the https:// address users reach, so that session cookies are marked Secure' });
  } else if (new URL(env.PUBLIC_URL).protocol !== 'https:') {
    ctx.addIssue({ code: 'custom', path: ['PUBLIC_URL'], message: 'must be an https:// address in production, or session cookies are not marked Secure: serve Voxline over https and set PUBLIC_URL to that address' });
  }
  if (!env.SMTP_URL) {
    ctx.addIssue({ code: 'custom', path: ['SMTP_URL'], message: 'is required in production, or mail (password resets, confirmations) never leaves the server: set it to smtp://user:password@host:587 or smtps://…' });
  }
  if (env.PAYMENTS === 'sandbox' && !env.UNSAFE_ALLOW_SANDBOX_PAYMENTS) {
    ctx.addIssue({
      code: 'custom',
      path: ['PAYMENTS'],
      params: VALUE_IN_MESSAGE,
      message: 'is sandbox, which production refuses: anyone would get Platinum with the public test card. Set PAYMENTS=paystack and PAYSTACK_SECRET_KEY (a staging deployment may set UNSAFE_ALLOW_SANDBOX_PAYMENTS=true)',
    });
  }
  if (env.TELEPHONY === 'local' && !env.UNSAFE_ALLOW_LOCAL_TELEPHONY) {
    ctx.addIssue({
      code: 'custom',
      path: ['TELEPHONY'],
      params: VALUE_IN_MESSAGE,
      message: 'is local, which production refuses: calls to outside numbers would reach an echo. Set TELEPHONY=vonage and the VONAGE_ variables (a staging deployment may set UNSAFE_ALLOW_LOCAL_TELEPHONY=true)',
    });
  }
}

/** The UNSAFE_ allowances a production server runs with, one warning each for its log. */
export function unsafeAllowancesInUse(config: Pick<Config, 'NODE_ENV' | 'PAYMENTS' | 'TELEPHONY' | 'UNSAFE_ALLOW_SANDBOX_PAYMENTS' | 'UNSAFE_ALLOW_LOCAL_TELEPHONY'>): string[] {
  if (config.NODE_ENV !== 'production') return [];
  const warnings: string[] = [];
  if (config.PAYMENTS === 'sandbox' && config.UNSAFE_ALLOW_SANDBOX_PAYMENTS) {
    warnings.push('UNSAFE_ALLOW_SANDBOX_PAYMENTS=true: plans are given for the public test cards and nobody is charged; for staging only');
  }
  if (config.TELEPHONY === 'local' && config.UNSAFE_ALLOW_LOCAL_TELEPHONY) {
    warnings.push('UNSAFE_ALLOW_LOCAL_TELEPHONY=true: numbers are virtual and calls to outside numbers reach an echo; for staging only');
  }
  return warnings;
}

/** A URL's password (DATABASE_URL, REDIS_URL, SMTP_URL may carry one) is masked in messages. */
function withoutPassword(value: string): string {
  return value.replace(/^([a-z][\w+.-]*:\/\/[^/@:]*):[^@/]*@/i, '$1:***@');
}

/** Their values never appear in an error message (which ends up in logs). */
const SECRET_VARIABLES = new Set(['AUTH_SECRET', 'VONAGE_API_SECRET', 'VONAGE_PRIVATE_KEY', 'VONAGE_SIGNATURE_SECRET', 'PAYSTACK_SECRET_KEY', 'TURN_SECRET', 'METRICS_TOKEN', 'S3_SECRET_ACCESS_KEY']);

export type Config = z.infer<typeof configSchema> & {
  dataDir: string;
  publicUrl: string;
  /** Where the telephony provider reaches this server: VONAGE_CALLBACK_URL, else the public address. */
  providerCallbackUrl: string;
  /** The support inbox: SUPPORT_EMAIL, else support@ the domain of MAIL_FROM. */
  supportEmail: string;
};

/** support@ the domain of a From address ("Voxline <no-reply@voxline.example>" → support@voxline.example). */
function supportAddressBeside(mailFrom: string): string {
  const domain = /@([^\s<>@]+?)>?\s*$/.exec(mailFrom)?.[1] ?? 'voxline.localhost';
  return `support@${domain}`;
}

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
      const valueInMessage = issue.code === 'custom' && issue.params?.valueInMessage === true;
      const shown = given === undefined || valueInMessage || SECRET_VARIABLES.has(name) ? '' : ` (got "${withoutPassword(given)}")`;
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
    supportEmail: parsed.SUPPORT_EMAIL ?? supportAddressBeside(parsed.MAIL_FROM),
  };
}
