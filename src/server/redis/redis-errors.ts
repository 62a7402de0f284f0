// How ioredis fails a command while Redis is away: the reconnection attempts a command may wait
// for are used up (maxRetriesPerRequest), it waited longer than commandTimeout, or the connection
// was closed under it. Socket codes such as ECONNREFUSED reach only the client's 'error' event.
const REDIS_DOWN_MESSAGES = ['Command timed out', 'Connection is closed.'];

/** Whether `error`, or one of its causes, is ioredis saying that Redis cannot be reached. */
export function isRedisUnavailable(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    if (current.name === 'MaxRetriesPerRequestError' || REDIS_DOWN_MESSAGES.includes(current.message)) return true;
  }
  return false;
}
