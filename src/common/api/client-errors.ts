import { z } from 'zod';
import { CLIENT_ERROR_LIMITS } from './client-error-limits';
import { textField } from './fields';

/** A page that failed in the browser (issue 22 item 5): the route it was on and what was thrown. */
export const clientErrorReportSchema = z.strictObject({
  route: textField('route').min(1, 'route is required').max(CLIENT_ERROR_LIMITS.route, `route must be at most ${CLIENT_ERROR_LIMITS.route} characters`),
  message: textField('message', { multiline: true }).max(CLIENT_ERROR_LIMITS.message, `message must be at most ${CLIENT_ERROR_LIMITS.message} characters`),
  stack: textField('stack', { multiline: true })
    .max(CLIENT_ERROR_LIMITS.stack, `stack must be at most ${CLIENT_ERROR_LIMITS.stack} characters`)
    .optional(),
});

export type ClientErrorReport = z.infer<typeof clientErrorReportSchema>;
