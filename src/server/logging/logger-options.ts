import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config';
import { requestLogSerializers } from '../http/request-log';
import { chooseLogFormat, prettyPrinterPath } from './log-format';

type LoggerOptions = Exclude<FastifyServerOptions['logger'], boolean | undefined>;

const SECRET_HEADERS = ['authorization', 'cookie', '["set-cookie"]', '["x-paystack-signature"]', '["proxy-authorization"]'];
/** Fields that hold a password, a token or a key wherever a log line carries them. */
const SECRET_FIELDS = ['password', 'currentPassword', 'newPassword', 'token', 'accessToken', 'refreshToken', 'jwt', 'secret', 'credential', 'signature'];
const SECRET_SETTINGS = ['AUTH_SECRET', 'SMTP_URL', 'DATABASE_URL', 'REDIS_URL', 'TURN_SECRET', 'PAYSTACK_SECRET_KEY', 'VONAGE_API_SECRET', 'VONAGE_PRIVATE_KEY', 'VONAGE_SIGNATURE_SECRET', 'S3_SECRET_ACCESS_KEY'];

/**
 * What pino blanks out before a line is written (docs/operations.md#logs). Nothing logs these
 * today (the request serializer keeps no header and cuts the query); the paths keep a field added
 * later from carrying a secret into the log: headers of a request or an answer, passwords and
 * tokens of a body, TURN credentials, the Paystack signature, the configuration's secrets.
 */
const REDACTED_PATHS = [
  ...['req.headers', 'res.headers', 'headers', 'request.headers', 'response.headers', 'err.headers', 'err.config.headers'].flatMap((parent) =>
    SECRET_HEADERS.map((header) => `${parent}${header.startsWith('[') ? '' : '.'}${header}`),
  ),
  ...SECRET_FIELDS.flatMap((field) => [field, `*.${field}`, `*.*.${field}`]),
  // What better-auth logs comes as a list of its arguments (auth/auth-log.ts), one level deeper.
  ...SECRET_FIELDS.map((field) => `details[*].*.${field}`),
  'iceServers[*].credential',
  '*.iceServers[*].credential',
  ...SECRET_SETTINGS.flatMap((setting) => [setting, `config.${setting}`]),
];

/**
 * What a redacted value becomes: a URL (DATABASE_URL, SMTP_URL…) keeps its scheme, user, host and
 * path, so that the line still says where it points, but not its password nor its query.
 */
function censor(value: unknown): string {
  if (typeof value !== 'string' || !/^[a-z][\w+.-]*:\/\//i.test(value)) return '[redacted]';
  // Up to the last @: a password written with an unencoded @ or / in it goes whole.
  return value.replace(/^([a-z][\w+.-]*:\/\/[^/@:?#]*):.*@/i, '$1:[redacted]@').replace(/[?#].*$/, '?[redacted]');
}

/** The app's logger: its level, the request serializers and the redaction, writing JSON to `stream` (stdout by default). */
export function loggerOptions(config: Pick<Config, 'LOG_LEVEL'>, stream?: { write(line: string): void }): LoggerOptions {
  return {
    level: config.LOG_LEVEL,
    serializers: requestLogSerializers,
    redact: { paths: REDACTED_PATHS, censor },
    ...(stream ? { stream } : {}),
  };
}

/**
 * The server process's logger (main.ts): the app's, written through pino-pretty when the format
 * is pretty (chooseLogFormat) and pino-pretty is installed. Without it the log stays JSON, and
 * `warning` says why, for the log's first line.
 */
export function processLoggerOptions(config: Pick<Config, 'LOG_LEVEL' | 'LOG_FORMAT' | 'NODE_ENV'>, stdoutIsTty: boolean, findPrettyPrinter = prettyPrinterPath): { options: LoggerOptions; warning: string | null } {
  const options = loggerOptions(config);
  if (chooseLogFormat(config, stdoutIsTty) === 'json') return { options, warning: null };
  const target = findPrettyPrinter();
  if (!target) return { options, warning: 'LOG_FORMAT is pretty but pino-pretty is not installed (a production install leaves it out): logging JSON' };
  return { options: { ...options, transport: { target, options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } }, warning: null };
}
