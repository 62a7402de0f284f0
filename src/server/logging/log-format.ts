import { createRequire } from 'node:module';
import type { Config } from '../config';

type LogFormat = 'json' | 'pretty';

/**
 * How the process writes its log: LOG_FORMAT when set; else pretty for a person reading a terminal
 * in development, and JSON lines for anything else (a file, a pipe, a log collector).
 */
export function chooseLogFormat(config: Pick<Config, 'LOG_FORMAT' | 'NODE_ENV'>, stdoutIsTty: boolean): LogFormat {
  if (config.LOG_FORMAT) return config.LOG_FORMAT;
  return config.NODE_ENV === 'development' && stdoutIsTty ? 'pretty' : 'json';
}

const require = createRequire(import.meta.url);

/**
 * pino-pretty's entry file, or null where it is not installed: it is a development dependency,
 * left out of a production install, so it is looked up only when asked for and never imported.
 */
export function prettyPrinterPath(resolve: () => string = () => require.resolve('pino-pretty')): string | null {
  try {
    return resolve();
  } catch {
    return null;
  }
}
