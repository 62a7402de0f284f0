import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { chooseLogFormat, prettyPrinterPath } from './log-format';
import { authLogTo } from '../auth/auth-log';
import { loggerOptions, processLoggerOptions } from './logger-options';

describe('chooseLogFormat', () => {
  it('is pretty for a person at a terminal in development, JSON for anything else', () => {
    expect(chooseLogFormat({ NODE_ENV: 'development' }, true)).toBe('pretty');
    expect(chooseLogFormat({ NODE_ENV: 'development' }, false)).toBe('json');
    expect(chooseLogFormat({ NODE_ENV: 'production' }, true)).toBe('json');
    expect(chooseLogFormat({ NODE_ENV: 'test' }, true)).toBe('json');
  });

  it('does what LOG_FORMAT says when it is set', () => {
    expect(chooseLogFormat({ NODE_ENV: 'development', LOG_FORMAT: 'json' }, true)).toBe('json');
    expect(chooseLogFormat({ NODE_ENV: 'production', LOG_FORMAT: 'pretty' }, false)).toBe('pretty');
  });
});

describe('processLoggerOptions', () => {
  const development = { NODE_ENV: 'development', LOG_LEVEL: 'debug' } as const;

  it('writes JSON to stdout with no transport when the format is JSON', () => {
    const { options, warning } = processLoggerOptions(development, false);
    expect(options).toMatchObject({ level: 'debug', redact: expect.any(Object) });
    expect(options).not.toHaveProperty('transport');
    expect(warning).toBeNull();
  });

  it('goes through pino-pretty, found where it is installed, when the format is pretty', () => {
    const { options, warning } = processLoggerOptions(development, true);
    expect(options).toMatchObject({ level: 'debug', redact: expect.any(Object), transport: { target: prettyPrinterPath() } });
    expect(prettyPrinterPath()).toMatch(/pino-pretty/);
    expect(warning).toBeNull();
  });

  it('falls back to JSON, saying why, where pino-pretty is not installed (a production install)', () => {
    const missing = () => {
      throw new Error("Cannot find module 'pino-pretty'");
    };
    expect(prettyPrinterPath(missing)).toBeNull();
    const { options, warning } = processLoggerOptions({ ...development, LOG_FORMAT: 'pretty' }, false, () => prettyPrinterPath(missing));
    expect(options).not.toHaveProperty('transport');
    expect(warning).toBe('LOG_FORMAT is pretty but pino-pretty is not installed (a production install leaves it out): logging JSON');
  });
});

describe("the app's logger", () => {
  it('blanks out headers, passwords, tokens, TURN credentials and the configuration’s secrets, and URLs’ passwords', () => {
    const lines: string[] = [];
    const { log } = Fastify({ logger: loggerOptions({ LOG_LEVEL: 'info' }, { write: (line) => void lines.push(line) }) });
    const secrets = ['Bearer eyJhbGciOi.jwt-of-vonage', 'session=cookie-value', 'set-cookie-value', 'paystack-signature-hex', 'hunter2-password', 'current-pw', 'new-pw', 'reset-token-abc', 'turn-credential', 'auth-secret-value', 'smtp-pass'];
    log.info({ headers: { authorization: secrets[0], cookie: secrets[1], 'x-paystack-signature': secrets[3] } }, 'a request');
    log.info({ response: { headers: { 'set-cookie': secrets[2] } } }, 'an answer');
    log.info({ body: { password: secrets[4], currentPassword: secrets[5], newPassword: secrets[6] } }, 'a body');
    log.info({ token: secrets[7], iceServers: [{ urls: 'turn:turn.example', username: 'u', credential: secrets[8] }] }, 'fields');
    log.info({ config: { AUTH_SECRET: secrets[9], SMTP_URL: `smtp://mailer:${secrets[10]}@mail.example:587`, PORT: 3000 } }, 'the configuration');
    const text = lines.join('');
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(text.match(/\[redacted\]/g)).toHaveLength(secrets.length);
    // A URL still says where it points.
    expect(JSON.parse(lines[4]!)).toMatchObject({ config: { SMTP_URL: 'smtp://mailer:[redacted]@mail.example:587', PORT: 3000 } });
  });
});

describe('better-auth’s lines in the app’s logger', () => {
  it('keep their level, message and details, an error’s message and stack, and lose any secret', () => {
    const lines: string[] = [];
    const { log } = Fastify({ logger: loggerOptions({ LOG_LEVEL: 'debug' }, { write: (line) => void lines.push(line) }) });
    const write = authLogTo(log);
    write('error', 'could not send the reset mail', new Error('SMTP refused'), { user: { email: 'ada@example.com', password: 'hunter2-password' }, token: 'reset-token-abc' });
    write('debug', 'a detail');
    const [failure, detail] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(failure).toMatchObject({ level: 50, msg: 'could not send the reset mail', details: [{ message: 'SMTP refused' }, { user: { email: 'ada@example.com', password: '[redacted]' }, token: '[redacted]' }] });
    expect((failure!.details as { stack: string }[])[0]!.stack).toContain('SMTP refused');
    expect(detail).toMatchObject({ level: 20, msg: 'a detail' });
    expect(detail).not.toHaveProperty('details');
    expect(lines.join('')).not.toMatch(/hunter2-password|reset-token-abc/);
  });
});
