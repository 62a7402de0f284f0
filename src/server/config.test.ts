import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, configSchema, loadConfig, unsafeAllowancesInUse } from './config';

describe('loadConfig', () => {
  it('fills every default when nothing is set, listening on this machine only', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ NODE_ENV: 'development', PORT: 3000, HOST: '127.0.0.1', LOG_LEVEL: 'info' });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.dataDir).toBe(path.resolve('./data'));
    expect(config.publicUrl).toBe('http://localhost:3000');
  });

  it('reads PORT, DATA_DIR and DATABASE_URL', () => {
    const config = loadConfig({ PORT: '4123', DATA_DIR: '/tmp/voxline-x', DATABASE_URL: 'postgres://u@h:5432/db' });
    expect(config.PORT).toBe(4123);
    expect(config.dataDir).toBe('/tmp/voxline-x');
    expect(config.DATABASE_URL).toBe('postgres://u@h:5432/db');
  });

  it('treats an empty variable as unset', () => {
    const config = loadConfig({ PORT: '', DATABASE_URL: '' });
    expect(config.PORT).toBe(3000);
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('names the variable and the problem in one line', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'abc' })).toThrow('Invalid configuration: PORT must be a whole number between 0 and 65535 (got "abc")');
  });

  it('lists every bad variable at once', () => {
    let message = '';
    try {
      loadConfig({ PORT: '70000', DATABASE_URL: 'mysql://db', LOG_LEVEL: 'loud' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).not.toContain('\n');
    expect(message).toContain('PORT must be a whole number');
    expect(message).toContain('DATABASE_URL must be a postgres:// or postgresql:// URL (got "mysql://db")');
    expect(message).toContain('LOG_LEVEL must be one of');
  });

  it('masks the password of a URL it quotes', () => {
    let message = '';
    try {
      loadConfig({ DATABASE_URL: 'mysql://admin:hunter2-secret@db:3306/voxline', REDIS_URL: 'http://:redis-pass@cache' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('DATABASE_URL must be a postgres:// or postgresql:// URL (got "mysql://admin:***@db:3306/voxline")');
    expect(message).toContain('(got "http://:***@cache")');
    expect(message).not.toContain('hunter2');
    expect(message).not.toContain('redis-pass');
  });

  it('reads TRUST_PROXY as Fastify takes it, REDIS_URL, and SIMULATED_INCOMING_RATE as a chance', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1,10.0.0.0/8' }).TRUST_PROXY).toEqual(['127.0.0.1', '10.0.0.0/8']);
    expect(() => loadConfig({ TRUST_PROXY: 'the load balancer' })).toThrow('TRUST_PROXY must be true, false, or proxy addresses separated by commas');
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' }).REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(() => loadConfig({ REDIS_URL: 'http://cache' })).toThrow('REDIS_URL must be a redis:// or rediss:// URL');
    expect(loadConfig({}).SIMULATED_INCOMING_RATE).toBe(0.05);
    expect(() => loadConfig({ SIMULATED_INCOMING_RATE: '5' })).toThrow('SIMULATED_INCOMING_RATE must be a number from 0 to 1');
  });

  it('reads LOG_FORMAT as json or pretty, unset unless given (the process then chooses)', () => {
    expect(loadConfig({}).LOG_FORMAT).toBeUndefined();
    expect(loadConfig({ LOG_FORMAT: 'pretty' }).LOG_FORMAT).toBe('pretty');
    expect(loadConfig({ LOG_FORMAT: 'json' }).LOG_FORMAT).toBe('json');
    expect(() => loadConfig({ LOG_FORMAT: 'colour' })).toThrow('Invalid configuration: LOG_FORMAT must be json or pretty (got "colour")');
  });

  it('reads MAX_CALLS_PER_INSTANCE as a whole number of calls, 20 unless set', () => {
    expect(loadConfig({}).MAX_CALLS_PER_INSTANCE).toBe(20);
    expect(loadConfig({ MAX_CALLS_PER_INSTANCE: '250' }).MAX_CALLS_PER_INSTANCE).toBe(250);
    for (const bad of ['0', '-3', '2.5', 'many']) {
      expect(() => loadConfig({ MAX_CALLS_PER_INSTANCE: bad })).toThrow(`Invalid configuration: MAX_CALLS_PER_INSTANCE must be a whole number of at least 1 (got "${bad}")`);
    }
  });

  it('reads ADMIN_EMAILS as lower-cased addresses, nobody unless set, naming a bad one', () => {
    expect(loadConfig({}).ADMIN_EMAILS).toEqual([]);
    expect(loadConfig({ ADMIN_EMAILS: ' Ops@Example.COM, second@example.org ' }).ADMIN_EMAILS).toEqual(['ops@example.com', 'second@example.org']);
    expect(() => loadConfig({ ADMIN_EMAILS: 'ops@example.com;boss' })).toThrow('Invalid configuration: ADMIN_EMAILS must be email addresses separated by commas (got "ops@example.com;boss")');
  });

  it('sends support requests to SUPPORT_EMAIL, else to support@ the domain MAIL_FROM sends from, naming a bad address', () => {
    expect(loadConfig({}).supportEmail).toBe('support@voxline.localhost');
    expect(loadConfig({ MAIL_FROM: 'Voxline <no-reply@mail.voxline.example>' }).supportEmail).toBe('support@mail.voxline.example');
    expect(loadConfig({ MAIL_FROM: 'robot@voxline.example' }).supportEmail).toBe('support@voxline.example');
    expect(loadConfig({ SUPPORT_EMAIL: 'help@voxline.example' }).supportEmail).toBe('help@voxline.example');
    expect(() => loadConfig({ SUPPORT_EMAIL: 'help desk' })).toThrow('SUPPORT_EMAIL must be an email address such as support@example.com (got "help desk")');
  });

  it('reads RETENTION_INTERVAL_MS as milliseconds, 0 turning the job off, an hour unless set', () => {
    expect(loadConfig({}).RETENTION_INTERVAL_MS).toBe(3_600_000);
    expect(loadConfig({ RETENTION_INTERVAL_MS: '0' }).RETENTION_INTERVAL_MS).toBe(0);
    expect(loadConfig({ RETENTION_INTERVAL_MS: '60000' }).RETENTION_INTERVAL_MS).toBe(60_000);
    for (const bad of ['500', '-1', '1.5', 'hourly', '2147483648']) {
      expect(() => loadConfig({ RETENTION_INTERVAL_MS: bad })).toThrow(`Invalid configuration: RETENTION_INTERVAL_MS must be 0 (off) or a whole number of milliseconds from 1000 to 2147483647 (got "${bad}")`);
    }
  });

  it('reads DRAIN_SECONDS as whole seconds, 0 allowed, 900 unless set', () => {
    expect(loadConfig({}).DRAIN_SECONDS).toBe(900);
    expect(loadConfig({ DRAIN_SECONDS: '0' }).DRAIN_SECONDS).toBe(0);
    expect(loadConfig({ DRAIN_SECONDS: '120' }).DRAIN_SECONDS).toBe(120);
    for (const bad of ['-1', '1.5', 'forever']) {
      expect(() => loadConfig({ DRAIN_SECONDS: bad })).toThrow(`Invalid configuration: DRAIN_SECONDS must be a whole number of seconds, 0 or more (got "${bad}")`);
    }
  });

  it('runs WebRTC on any free UDP port unless told a range, an announced address, and STUN/TURN servers', () => {
    const plain = loadConfig({});
    expect([plain.WEBRTC, plain.WEBRTC_PORTS, plain.WEBRTC_PUBLIC_ADDRESS, plain.STUN_URLS, plain.TURN_URLS]).toEqual([true, undefined, undefined, undefined, undefined]);
    expect(loadConfig({ WEBRTC: 'false' }).WEBRTC).toBe(false);
    const deployed = loadConfig({
      WEBRTC_PORTS: '40000-40999',
      WEBRTC_PUBLIC_ADDRESS: '203.0.113.5',
      STUN_URLS: 'stun:turn.example.com:3478',
      TURN_URLS: 'turn:turn.example.com:3478?transport=udp,turns:turn.example.com:443?transport=tcp',
      TURN_SECRET: 'a-long-shared-turn-secret',
    });
    expect(deployed.WEBRTC_PORTS).toEqual([40000, 40999]);
    expect(deployed.WEBRTC_PUBLIC_ADDRESS).toBe('203.0.113.5');
    expect(deployed.STUN_URLS).toEqual(['stun:turn.example.com:3478']);
    expect(deployed.TURN_URLS).toEqual(['turn:turn.example.com:3478?transport=udp', 'turns:turn.example.com:443?transport=tcp']);
    expect(() => loadConfig({ WEBRTC: 'yes' })).toThrow('WEBRTC must be true or false (got "yes")');
    expect(() => loadConfig({ WEBRTC_PORTS: '40999-40000' })).toThrow('WEBRTC_PORTS must be a range of at least two UDP ports between 1024 and 65535, the lower first (got "40999-40000")');
    expect(() => loadConfig({ WEBRTC_PORTS: '40000-40000' })).toThrow('WEBRTC_PORTS must be a range of at least two UDP ports');
    expect(() => loadConfig({ WEBRTC_PORTS: 'many' })).toThrow('WEBRTC_PORTS must be a range of UDP ports such as 40000-40999 (got "many")');
    expect(() => loadConfig({ WEBRTC_PUBLIC_ADDRESS: 'voxline.example.com' })).toThrow('WEBRTC_PUBLIC_ADDRESS must be an IPv4 or IPv6 address (got "voxline.example.com")');
    expect(() => loadConfig({ STUN_URLS: 'https://stun.example.com' })).toThrow('STUN_URLS must be stun: or stuns: URLs separated by commas');
  });

  it('needs the TURN secret with TURN servers, and never shows it', () => {
    expect(() => loadConfig({ TURN_URLS: 'turn:turn.example.com:3478' })).toThrow('TURN_SECRET is required when TURN_URLS is set');
    let message = '';
    try {
      loadConfig({ TURN_SECRET: 'short-secret' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('TURN_SECRET must be at least 16 characters');
    expect(message).not.toContain('short-secret');
  });

  it('serves no metrics unless told: a port of their own on this machine, or a token for /metrics on PORT, never shown', () => {
    const plain = loadConfig({});
    expect([plain.METRICS_PORT, plain.METRICS_HOST, plain.METRICS_TOKEN]).toEqual([undefined, '127.0.0.1', undefined]);
    const set = loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5', METRICS_TOKEN: 'a'.repeat(32) });
    expect([set.METRICS_PORT, set.METRICS_HOST, set.METRICS_TOKEN]).toEqual([9464, '10.0.0.5', 'a'.repeat(32)]);
    expect(() => loadConfig({ METRICS_PORT: '70000' })).toThrow('Invalid configuration: METRICS_PORT must be a whole number between 0 and 65535 (got "70000")');
    expect(() => loadConfig({ PORT: '3000', METRICS_PORT: '3000' })).toThrow('Invalid configuration: METRICS_PORT must differ from PORT');
    expect(loadConfig({ PORT: '0', METRICS_PORT: '0' }).METRICS_PORT).toBe(0);
    let message = '';
    try {
      loadConfig({ METRICS_TOKEN: 'short token' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('METRICS_TOKEN must be at least 16 printable ASCII characters, without spaces');
    expect(message).not.toContain('short token');
  });

  it('uses the virtual carrier unless TELEPHONY says vonage', () => {
    expect(loadConfig({}).TELEPHONY).toBe('local');
    expect(() => loadConfig({ TELEPHONY: 'twilio' })).toThrow('Invalid configuration: TELEPHONY must be local or vonage (got "twilio")');
  });

  it('refuses TELEPHONY=vonage in one line naming each missing variable', () => {
    let message = '';
    try {
      loadConfig({ TELEPHONY: 'vonage', VONAGE_API_KEY: 'key' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe(
      'Invalid configuration: VONAGE_API_SECRET is required when TELEPHONY=vonage; VONAGE_APPLICATION_ID is required when TELEPHONY=vonage; ' +
        'VONAGE_PRIVATE_KEY is required when TELEPHONY=vonage; VONAGE_SIGNATURE_SECRET is required when TELEPHONY=vonage; PUBLIC_URL is required when TELEPHONY=vonage',
    );
  });

  it('accepts TELEPHONY=vonage with its variables, the private key as PEM text or a file, and never shows the key', () => {
    const vonage = {
      TELEPHONY: 'vonage',
      VONAGE_API_KEY: 'key',
      VONAGE_API_SECRET: 'secret',
      VONAGE_APPLICATION_ID: 'app',
      VONAGE_PRIVATE_KEY: '-----BEGIN PRIVATE KEY-----\\nabc\\n-----END PRIVATE KEY-----',
      VONAGE_SIGNATURE_SECRET: 'signature-secret',
      PUBLIC_URL: 'https://voxline.example',
    };
    expect(loadConfig(vonage)).toMatchObject({
      TELEPHONY: 'vonage',
      VONAGE_REST_URL: 'https://rest.nexmo.com',
      VONAGE_API_URL: 'https://api.nexmo.com',
      providerCallbackUrl: 'https://voxline.example',
    });
    // A tunnel during development: Vonage calls back there while people use PUBLIC_URL.
    expect(loadConfig({ ...vonage, VONAGE_CALLBACK_URL: 'https://tunnel.example' }).providerCallbackUrl).toBe('https://tunnel.example');
    expect(() => loadConfig({ ...vonage, VONAGE_CALLBACK_URL: 'tunnel.example' })).toThrow('VONAGE_CALLBACK_URL must be an absolute http(s) URL');
    expect(() => loadConfig({ ...vonage, VONAGE_SIGNATURE_SECRET: '' })).toThrow(/^Invalid configuration: VONAGE_SIGNATURE_SECRET is required when TELEPHONY=vonage$/);

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'voxline-config-'));
    try {
      const file = path.join(dir, 'private.key');
      fs.writeFileSync(file, 'pem');
      expect(loadConfig({ ...vonage, VONAGE_PRIVATE_KEY: file }).VONAGE_PRIVATE_KEY).toBe(file);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    expect(() => loadConfig({ ...vonage, VONAGE_PRIVATE_KEY: 'MIIEvQ-not-a-key' })).toThrow(
      /^Invalid configuration: VONAGE_PRIVATE_KEY must be the PEM text of the private key or the path of a readable file$/,
    );
    expect(() => loadConfig({ ...vonage, VONAGE_REST_URL: 'ftp://x' })).toThrow('VONAGE_REST_URL must be an absolute http(s) URL');
  });

  it('takes payments through the sandbox unless PAYMENTS says paystack, which needs its secret key (never shown)', () => {
    expect(loadConfig({})).toMatchObject({ PAYMENTS: 'sandbox', PAYSTACK_API_URL: 'https://api.paystack.co' });
    expect(() => loadConfig({ PAYMENTS: 'stripe' })).toThrow('Invalid configuration: PAYMENTS must be sandbox or paystack (got "stripe")');
    expect(() => loadConfig({ PAYMENTS: 'paystack' })).toThrow(/^Invalid configuration: PAYSTACK_SECRET_KEY is required when PAYMENTS=paystack$/);
    expect(loadConfig({ PAYMENTS: 'paystack', PAYSTACK_SECRET_KEY: 'sk_test_abc123' })).toMatchObject({ PAYMENTS: 'paystack', PAYSTACK_SECRET_KEY: 'sk_test_abc123' });
    expect(() => loadConfig({ PAYMENTS: 'paystack', PAYSTACK_SECRET_KEY: 'pk_test_public' })).toThrow(
      /^Invalid configuration: PAYSTACK_SECRET_KEY must be a Paystack secret key \(sk_test_… or sk_live_…\)$/,
    );
    expect(() => loadConfig({ PAYSTACK_API_URL: 'api.paystack.co' })).toThrow('PAYSTACK_API_URL must be an absolute http(s) URL');
  });

  it('refuses production with the settings of a developer machine, naming each variable and what to do, in one line', () => {
    let message = '';
    try {
      loadConfig({ NODE_ENV: 'production' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe(
      'Invalid configuration: ' +
        [
          'AUTH_SECRET is required in production: make one with `openssl rand -base64 32` and set the same on every instance',
          'PUBLIC_URL is required in production: set it to the https:// address users reach, so that session cookies are marked Secure',
          'SMTP_URL is required in production, or mail (password resets, confirmations) never leaves the server: set it to smtp://user:password@host:587 or smtps://…',
          'PAYMENTS is sandbox, which production refuses: anyone would get Platinum with the public test card. ' +
            'Set PAYMENTS=paystack and PAYSTACK_SECRET_KEY (a staging deployment may set UNSAFE_ALLOW_SANDBOX_PAYMENTS=true)',
          'TELEPHONY is local, which production refuses: calls to outside numbers would reach an echo. ' +
            'Set TELEPHONY=vonage and the VONAGE_ variables (a staging deployment may set UNSAFE_ALLOW_LOCAL_TELEPHONY=true)',
        ].join('; '),
    );
  });

  describe('in production', () => {
    const production = {
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://voxline.example',
      AUTH_SECRET: 'lO12sOlVmw1YFpiAFNZfQIGr6x8hw6S2mdAu5fYI04E=',
      SMTP_URL: 'smtp://mailer:secret@mail.example:587',
      PAYMENTS: 'paystack',
      PAYSTACK_SECRET_KEY: 'sk_live_abc123',
      TELEPHONY: 'vonage',
      VONAGE_API_KEY: 'key',
      VONAGE_API_SECRET: 'secret',
      VONAGE_APPLICATION_ID: 'app',
      VONAGE_PRIVATE_KEY: '-----BEGIN PRIVATE KEY-----\\nabc\\n-----END PRIVATE KEY-----',
      VONAGE_SIGNATURE_SECRET: 'signature-secret',
    };
    const refusal = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (error) {
        return (error as Error).message;
      }
      return 'accepted';
    };

    it('accepts real providers, SMTP, an https address and a random key', () => {
      expect(loadConfig(production)).toMatchObject({ NODE_ENV: 'production', PAYMENTS: 'paystack', TELEPHONY: 'vonage' });
      expect(unsafeAllowancesInUse(loadConfig(production))).toEqual([]);
    });

    it('refuses each unsafe setting alone, in one line naming it', () => {
      expect(refusal({ ...production, PAYMENTS: 'sandbox' })).toMatch(/^Invalid configuration: PAYMENTS is sandbox, which production refuses: anyone would get Platinum with the public test card\. Set PAYMENTS=paystack/);
      expect(refusal({ ...production, TELEPHONY: 'local' })).toMatch(/^Invalid configuration: TELEPHONY is local, which production refuses: calls to outside numbers would reach an echo\. Set TELEPHONY=vonage/);
      expect(refusal({ ...production, SMTP_URL: '' })).toMatch(/^Invalid configuration: SMTP_URL is required in production[^;]*$/);
      expect(refusal({ ...production, PUBLIC_URL: 'http://voxline.example' })).toBe(
        'Invalid configuration: PUBLIC_URL must be an https:// address in production, or session cookies are not marked Secure: ' +
          'serve Voxline over https and set PUBLIC_URL to that address (got "http://voxline.example")',
      );
    });

    it('refuses an AUTH_SECRET with less than 128 bits of estimated entropy, without showing it', () => {
      for (const weak of ['a'.repeat(40), 'password'.repeat(5), 'correct horse battery staple voxline']) {
        const message = refusal({ ...production, AUTH_SECRET: weak });
        expect(message, weak).toMatch(
          /^Invalid configuration: AUTH_SECRET is too easy to guess for production \(about \d+ bits of entropy, 128 needed\): make one with `openssl rand -base64 32`$/,
        );
        expect(message).not.toContain(weak);
      }
      // Outside production a development key is fine.
      expect(loadConfig({ AUTH_SECRET: 'password'.repeat(5) }).AUTH_SECRET).toBe('password'.repeat(5));
    });

    it('lets a staging deployment use the sandbox and the virtual carrier only by saying so, and names them for the log', () => {
      const staging = { ...production, PAYMENTS: 'sandbox', TELEPHONY: 'local' };
      expect(refusal({ ...staging, UNSAFE_ALLOW_SANDBOX_PAYMENTS: 'true' })).toMatch(/^Invalid configuration: TELEPHONY is local/);
      expect(refusal({ ...staging, UNSAFE_ALLOW_LOCAL_TELEPHONY: 'true' })).toMatch(/^Invalid configuration: PAYMENTS is sandbox[^;]*$/);
      expect(refusal({ ...staging, UNSAFE_ALLOW_SANDBOX_PAYMENTS: 'yes' })).toMatch(/UNSAFE_ALLOW_SANDBOX_PAYMENTS must be true or false/);

      const config = loadConfig({ ...staging, UNSAFE_ALLOW_SANDBOX_PAYMENTS: 'true', UNSAFE_ALLOW_LOCAL_TELEPHONY: 'true' });
      expect(config).toMatchObject({ PAYMENTS: 'sandbox', TELEPHONY: 'local' });
      expect(unsafeAllowancesInUse(config)).toEqual([
        'UNSAFE_ALLOW_SANDBOX_PAYMENTS=true: plans are given for the public test cards and nobody is charged; for staging only',
        'UNSAFE_ALLOW_LOCAL_TELEPHONY=true: numbers are virtual and calls to outside numbers reach an echo; for staging only',
      ]);
      expect(unsafeAllowancesInUse(loadConfig({ UNSAFE_ALLOW_SANDBOX_PAYMENTS: 'true' }))).toEqual([]);
    });
  });

  it('keeps audio in local files unless STORAGE says s3, which needs a bucket and both keys or neither (the secret never shown)', () => {
    expect(loadConfig({})).toMatchObject({ STORAGE: 'local', S3_REGION: 'us-east-1', S3_FORCE_PATH_STYLE: false });
    expect(() => loadConfig({ STORAGE: 's3' })).toThrow('S3_BUCKET is required when STORAGE=s3');
    expect(() => loadConfig({ STORAGE: 'disk' })).toThrow('STORAGE must be local or s3');
    expect(() => loadConfig({ STORAGE: 's3', S3_BUCKET: 'b', S3_SECRET_ACCESS_KEY: 'hidden-secret' })).toThrow(/^Invalid configuration: S3_ACCESS_KEY_ID must be set together/);
    const config = loadConfig({ STORAGE: 's3', S3_BUCKET: 'b', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's', S3_FORCE_PATH_STYLE: 'true' });
    expect(config).toMatchObject({ STORAGE: 's3', S3_BUCKET: 'b', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_FORCE_PATH_STYLE: true });
    expect(() => loadConfig({ STORAGE: 's3', S3_BUCKET: 'b', S3_ENDPOINT: 'not a url', S3_SECRET_ACCESS_KEY: 'hidden-secret', S3_ACCESS_KEY_ID: 'k' })).toThrow('S3_ENDPOINT');
  });

  it('is documented: every variable in .env.example and in the README table', () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const example = fs.readFileSync(path.join(root, '.env.example'), 'utf8');
    const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
    for (const name of Object.keys(configSchema.shape)) {
      expect(example, name).toMatch(new RegExp(`^${name}=`, 'm'));
      expect(readme, name).toContain(`| \`${name}\` |`);
    }
  });
});
