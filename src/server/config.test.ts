import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

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
});
