import { placeCallResultSchema, SERVER_DRAINING, SERVER_DRAINING_RETRY_SEC, type PlaceCallResult } from '../../src/common/api/calls';
import { sleep } from '../media/load';
import type { VoxlineUser } from '../load/voxline-user';
import { UPSTREAM_HEADER } from './balancer';

/**
 * The wait a refusal by a draining instance asks for (503 server_draining, docs/deploy.md#draining),
 * in ms: its Retry-After, or the browser's own wait without one; null for any other answer.
 */
export function drainingRetryMs(status: number, body: unknown, retryAfter: string | null): number | null {
  if (status !== 503) return null;
  const code = (body as { error?: { code?: unknown } } | null | undefined)?.error?.code;
  if (code !== SERVER_DRAINING) return null;
  const seconds = retryAfter === null || retryAfter.trim() === '' ? Number.NaN : Number(retryAfter);
  return (Number.isFinite(seconds) && seconds >= 0 ? seconds : SERVER_DRAINING_RETRY_SEC) * 1000;
}

interface Placement {
  placed: PlaceCallResult | null;
  /** The instance that put it through (the balancer's UPSTREAM_HEADER). */
  heldBy: string | null;
  /** 503 server_draining answers on the way. */
  refusals: number;
  /** Why it was not placed; null when it was. */
  problem: string | null;
}

const safeJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/**
 * Places a call through the balancer as the web app does (src/web/calls/call-placing.ts): refused
 * by a draining instance, it tries once more after the wait the refusal names; a second refusal is
 * what the person reads.
 */
export async function placeCall(baseUrl: string, caller: VoxlineUser, to: string): Promise<Placement> {
  let refusals = 0;
  for (;;) {
    const response = await fetch(`${baseUrl}/api/v1/calls`, {
      method: 'POST',
      headers: { ...caller.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ from: caller.phoneNumber, to }),
    });
    const text = await response.text();
    const body = safeJson(text);
    if (response.status === 201) return { placed: placeCallResultSchema.parse(body), heldBy: response.headers.get(UPSTREAM_HEADER), refusals, problem: null };
    const wait = drainingRetryMs(response.status, body, response.headers.get('retry-after'));
    if (wait === null) return { placed: null, heldBy: null, refusals, problem: `placing it answered ${response.status} ${text}` };
    refusals += 1;
    if (refusals > 1) return { placed: null, heldBy: null, refusals, problem: `refused again after ${wait} ms: ${text}` };
    await sleep(wait);
  }
}
