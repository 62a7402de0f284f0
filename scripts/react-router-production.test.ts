import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { reactRouterProduction } from './react-router-production';

describe("react-router's production build", () => {
  it.each([
    ['react-router', 'react-router'],
    ['react-router/dom', 'react-router/dom'],
  ])('stands in for %s with the same exports', async (specifier, packageEntry) => {
    const alias = reactRouterProduction.find(({ find }) => (find as RegExp).test(specifier))!;
    expect(fs.existsSync(alias.replacement)).toBe(true);
    expect(alias.replacement).toMatch(/[/\\]dist[/\\]production[/\\]/);
    const production = (await import(/* @vite-ignore */ alias.replacement)) as Record<string, unknown>;
    const development = (await import(/* @vite-ignore */ packageEntry)) as Record<string, unknown>;
    expect(Object.keys(production).sort()).toEqual(Object.keys(development).sort());
  });
});
