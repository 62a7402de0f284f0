import { describe, expect, it } from 'vitest';
import { preloadRoute } from '../router';
import { LANDINGS } from './landing-routes';

describe('the landing routes', () => {
  it.each(Object.entries(LANDINGS))("name the modules of the components router.tsx loads for %s", async (pathname, landing) => {
    const components = await preloadRoute(pathname);
    const exported = (await Promise.all(landing.modules.map((module) => import(/* @vite-ignore */ `../${module}`) as Promise<Record<string, unknown>>))).flatMap((module) => Object.values(module));
    expect(components.length).toBeGreaterThan(0);
    for (const component of components) expect(exported).toContain(component);
    expect(landing.modules.filter((module) => module.endsWith('.tsx'))).toHaveLength(components.length);
  }, 60_000);
});
