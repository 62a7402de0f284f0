import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, configSchema, loadConfig } from './config';

describe('loadConfig', () => {
  it('fills every default when nothing is set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ NODE_ENV: 'development', PORT: 3000, HOST: '0.0.0.0', LOG_LEVEL: 'info' });
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
