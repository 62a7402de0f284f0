import type { RouteOptions } from 'fastify';
import WebSocket from 'ws';
import { buildTestApp, type TestApp, type TestAppOptions } from '../support/test-app';

/** One route of the app's table, as Fastify was given it. */
export interface Route {
  method: string;
  url: string;
  websocket: boolean;
  options: RouteOptions;
}

export const routeName = (route: Pick<Route, 'method' | 'url'>) => `${route.method} ${route.url}`;

/** Routes every suite here covers: the API, the compatibility functions and the metrics, websockets included. */
const isApiUrl = (url: string) => url.startsWith('/api/') || url.startsWith('/functions/') || url === '/metrics';

/** The real app, with every route it registers recorded as it is added. */
export async function buildAppWithRouteTable(options: TestAppOptions = {}): Promise<{ testApp: TestApp; routes: Route[] }> {
  const routes: Route[] = [];
  const testApp = await buildTestApp({
    ...options,
    onRoute: (route) => {
      for (const method of [route.method].flat()) {
        routes.push({ method, url: route.url, websocket: Boolean((route as { websocket?: boolean }).websocket), options: route });
      }
    },
  });
  await testApp.app.ready();
  return { testApp, routes: routes.filter((route) => isApiUrl(route.url)) };
}

/** Percent-encodes a path segment; a lone surrogate, which has no UTF-8, goes as the bytes a careless client would send. */
function encodeSegment(value: string): string {
  let encoded = '';
  for (const char of value) {
    try {
      encoded += encodeURIComponent(char);
    } catch {
      const code = char.charCodeAt(0);
      encoded += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((byte) => `%${byte.toString(16).toUpperCase()}`).join('');
    }
  }
  return encoded;
}

/** Fills a route's `:name` parameters. */
export function fillParams(url: string, params: Record<string, string>): string {
  return url.replace(/:(\w+)/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no value for :${name} in ${url}`);
    return encodeSegment(value);
  });
}

export type UpgradeOutcome = { refused: number } | { closed: number } | { open: true };

/**
 * Tries a websocket upgrade on a listening server: the HTTP status it was refused with, the close
 * code of a socket that was accepted and then closed, or `open` for one still open after a moment
 * (closed here, so that nothing is left behind).
 */
export function tryUpgrade(url: string, headers: Record<string, string>): Promise<UpgradeOutcome> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, { headers });
    let settled = false;
    const settle = (outcome: UpgradeOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const timer = setTimeout(() => {
      settle({ open: true });
      socket.terminate();
    }, 1500);
    socket.on('error', () => undefined);
    socket.on('unexpected-response', (request, response) => {
      response.resume();
      settle({ refused: response.statusCode ?? 0 });
      request.destroy();
    });
    socket.on('close', (code) => settle({ closed: code }));
  });
}
