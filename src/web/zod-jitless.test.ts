import vm from 'node:vm';
import { globalConfig } from 'zod/v4/core';
import { describe, expect, it } from 'vitest';
import indexHtml from './index.html?raw';

/** The inline script of index.html that turns zod's eval probe off before any module runs. */
const zodScript = [...indexHtml.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(([, script]) => script!).find((script) => script.includes('__zod_globalConfig'));

describe('the zod script of index.html', () => {
  it('sets jitless in the global object zod takes its settings from', () => {
    expect(zodScript).toBeDefined();
    const page = vm.createContext({});
    vm.runInContext(zodScript!, page);
    expect(vm.runInContext('globalThis.__zod_globalConfig', page)).toEqual({ jitless: true });
  });

  it('names the object zod itself reads (z.config writes to it), so a zod upgrade that renames it fails here', () => {
    expect((globalThis as { __zod_globalConfig?: unknown }).__zod_globalConfig).toBe(globalConfig);
  });
});
