/**
 * Path prefixes the server answers itself (the API, the prototype's functions, the sandbox checkout,
 * the outbox, the providers' webhooks, the metrics): a browser going there must reach the server,
 * never the web app's shell, and nothing under them may be cached by the service worker.
 */
export const SERVER_PATH_PREFIXES = ['/api/', '/functions/', '/sandbox/', '/dev/', '/providers/', '/metrics'] as const;

/** Whether the server, not the web app, answers this path. */
export function isServerPath(pathname: string): boolean {
  return SERVER_PATH_PREFIXES.some((prefix) => pathname.startsWith(prefix) || `${pathname}/` === prefix);
}
