import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { landingScript, type LandingAssets } from './landing-script';

const landings: LandingAssets = {
  '/dialer': { modules: ['/assets/app-layout-a1.js', '/assets/dialer-page-b2.js'], data: ['/preferences', '/numbers'] },
};

/** Runs the script as index.html does, in a page at `pathname`: what it asked for, what it preloads, and what it left for the app. */
function landOn(pathname: string) {
  const fetched: { url: string; init: RequestInit }[] = [];
  const links: { rel: string; href: string }[] = [];
  const page: Record<string, unknown> = {
    location: { pathname },
    fetch: (url: string, init: RequestInit) => {
      fetched.push({ url, init });
      return Promise.resolve(new Response('{}'));
    },
    document: { createElement: () => ({ rel: '', href: '' }), head: { appendChild: (link: { rel: string; href: string }) => links.push({ ...link }) } },
  };
  vm.runInNewContext(landingScript(landings), page);
  return { fetched, links, early: page.__voxlineEarly as Record<string, Promise<Response | null>> };
}

describe("index.html's landing script", () => {
  it("asks for the session and the landing page's data, and preloads its chunks", () => {
    const { fetched, links, early } = landOn('/dialer');
    expect(fetched.map(({ url }) => url)).toEqual(['/api/v1/session', '/api/v1/preferences', '/api/v1/numbers']);
    expect(fetched[0]!.init).toEqual({ credentials: 'same-origin', headers: { accept: 'application/json' } });
    expect(links).toEqual([
      { rel: 'modulepreload', href: '/assets/app-layout-a1.js' },
      { rel: 'modulepreload', href: '/assets/dialer-page-b2.js' },
    ]);
    expect(Object.keys(early)).toEqual(['/session', '/preferences', '/numbers']);
  });

  it('asks for the session alone on a page it does not know, and preloads nothing', () => {
    const { fetched, links } = landOn('/toString');
    expect(fetched.map(({ url }) => url)).toEqual(['/api/v1/session']);
    expect(links).toEqual([]);
  });

  it('leaves null for a request that could not reach the server', async () => {
    const page: Record<string, unknown> = { location: { pathname: '/' }, fetch: () => Promise.reject(new TypeError('Failed to fetch')), document: { head: {} } };
    vm.runInNewContext(landingScript(landings), page);
    await expect((page.__voxlineEarly as Record<string, Promise<unknown>>)['/session']).resolves.toBeNull();
  });
});
