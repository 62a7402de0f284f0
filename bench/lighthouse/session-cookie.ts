import { randomBytes } from 'node:crypto';

const PASSWORD = 'velvet harbour lantern 42';

async function post(baseUrl: string, path: string, body: unknown): Promise<Response> {
  // better-auth refuses state-changing requests without an Origin it trusts.
  const response = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: baseUrl }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`POST ${path} answered ${response.status}: ${await response.text()}`);
  return response;
}

/**
 * Signs a new user up and in through the API and returns the session as a Cookie header value,
 * for Lighthouse to send with every request of a signed-in page.
 */
export async function signedInCookie(baseUrl: string): Promise<string> {
  const email = `lighthouse-${randomBytes(4).toString('hex')}@bench.voxline.test`;
  await post(baseUrl, '/api/v1/auth/sign-up', { fullName: 'Lighthouse Bench', email, password: PASSWORD });
  const signedIn = await post(baseUrl, '/api/v1/auth/sign-in', { email, password: PASSWORD });
  const cookies = signedIn.headers.getSetCookie().map((header) => header.split(';')[0]);
  if (cookies.length === 0) throw new Error('sign-in answered with no session cookie');
  return cookies.join('; ');
}
