/** Where better-auth's own lines go: the app's logger (pino), with its format and its redaction. */
export interface AuthLog {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * better-auth writes to the console by itself, outside the app's log: its lines would be neither
 * JSON nor redacted. Its arguments go under `details`, where the redact paths of any field named
 * password, token or secret reach them; an error keeps its message and stack.
 */
export function authLogTo(log: AuthLog) {
  return (level: keyof AuthLog, message: string, ...args: unknown[]) => {
    const details = args.map((arg) => (arg instanceof Error ? { message: arg.message, stack: arg.stack } : arg));
    log[level](details.length > 0 ? { details } : {}, message);
  };
}
