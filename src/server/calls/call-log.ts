/**
 * What the call core logs through: Fastify's pino logger, or a test's stand-in. A call logs through
 * a child bound to its ids (LiveCalls), so that every line of its story carries them
 * (docs/operations.md#logs).
 */
export interface CallLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  child(bindings: Record<string, unknown>): CallLog;
}
