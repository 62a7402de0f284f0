import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { forgetLanding, landOnPage } from '../../../tests/support/landing';
import { stubFetch } from '../../../tests/support/render-web';
import { sessionQuery } from './session';

const session = { user: { id: 'user-1', email: 'ada@example.com', fullName: 'Ada Lovelace' }, isAdmin: false };

afterEach(() => {
  vi.unstubAllGlobals();
  forgetLanding();
});

const checkSession = (client: QueryClient) => client.fetchQuery({ ...sessionQuery, staleTime: 0 });

describe('the session check', () => {
  it("takes the answer index.html asked for on the page's first check, and asks the server on the next", async () => {
    const { fetchStub, calls } = stubFetch({ '/api/v1/session': { status: 200, body: session } });
    landOnPage(fetchStub);
    vi.stubGlobal('fetch', fetchStub);
    expect(calls.map(({ url, init }) => [url, init?.credentials])).toEqual([['/api/v1/session', 'same-origin']]);

    const client = new QueryClient();
    await expect(checkSession(client)).resolves.toMatchObject({ user: { email: 'ada@example.com' } });
    expect(calls).toHaveLength(1);
    await checkSession(client);
    expect(calls).toHaveLength(2);
  });

  it('reads a signed-out answer from the early request as signed out', async () => {
    landOnPage(stubFetch({ '/api/v1/session': { status: 200, body: null } }).fetchStub);
    await expect(checkSession(new QueryClient())).resolves.toBeNull();
  });

  it('asks the server itself when the early request could not reach it', async () => {
    landOnPage(() => Promise.reject(new TypeError('Failed to fetch')));
    const answers = stubFetch({ '/api/v1/session': { status: 200, body: session } });
    vi.stubGlobal('fetch', answers.fetchStub);
    await expect(checkSession(new QueryClient())).resolves.toMatchObject({ isAdmin: false });
    expect(answers.calls).toHaveLength(1);
  });

  it('asks the server where the page had no early request (an older page, or tests)', async () => {
    const { fetchStub, calls } = stubFetch({ '/api/v1/session': { status: 200, body: session } });
    vi.stubGlobal('fetch', fetchStub);
    await checkSession(new QueryClient());
    expect(calls).toHaveLength(1);
  });
});
