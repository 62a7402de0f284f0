/** PostgreSQL's unique_violation: another row already holds the value (Drizzle wraps the driver's error). */
export function isUniqueViolation(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    if ((current as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids in URLs are uuids; anything else names nothing (404), rather than a query error. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
