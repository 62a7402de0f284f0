/**
 * The longest route, message and stack a client error report keeps; the browser cuts its report to
 * these before sending. Apart from the report's schema: the error screens, on every page, need
 * only these numbers, not zod (docs/decisions/021).
 */
export const CLIENT_ERROR_LIMITS = { route: 200, message: 1000, stack: 8000 } as const;
