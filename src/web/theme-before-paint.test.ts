import vm from 'node:vm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import indexHtml from './index.html?raw';
import { initialTheme } from './lib/theme';

/** The inline script of index.html that applies the theme before the first paint. */
const themeScript = /<script>([\s\S]*?)<\/script>/.exec(indexHtml)![1]!;

function systemPrefersDark(dark: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: dark && query === '(prefers-color-scheme: dark)', media: query }));
}

/** Runs the script as the browser would, in a fresh document, and answers the theme it applied. */
function runThemeScript() {
  document.documentElement.className = '';
  document.documentElement.style.colorScheme = '';
  vm.runInNewContext(themeScript, { window, document });
  return { className: document.documentElement.className, colorScheme: document.documentElement.style.colorScheme };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the theme script of index.html', () => {
  const cases: { name: string; stored: string | null; systemDark: boolean; expected: 'light' | 'dark' }[] = [
    { name: 'a stored dark theme, on a light system', stored: 'dark', systemDark: false, expected: 'dark' },
    { name: 'a stored light theme, on a dark system', stored: 'light', systemDark: true, expected: 'light' },
    { name: 'nothing stored, on a dark system', stored: null, systemDark: true, expected: 'dark' },
    { name: 'nothing stored, on a light system', stored: null, systemDark: false, expected: 'light' },
    { name: 'garbage stored, on a dark system', stored: 'Dark', systemDark: true, expected: 'dark' },
    { name: 'garbage stored, on a light system', stored: '{"theme":"dark"}', systemDark: false, expected: 'light' },
  ];

  for (const { name, stored, systemDark, expected } of cases) {
    it(`applies ${expected} for ${name}, as theme.tsx decides`, () => {
      if (stored !== null) window.localStorage.setItem('theme', stored);
      systemPrefersDark(systemDark);
      expect(runThemeScript()).toEqual({ className: expected, colorScheme: expected });
      expect(initialTheme()).toBe(expected);
    });
  }

  it('falls back to the system theme when storage cannot be read, as theme.tsx does', () => {
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    });
    systemPrefersDark(true);
    expect(runThemeScript()).toEqual({ className: 'dark', colorScheme: 'dark' });
    expect(initialTheme()).toBe('dark');
  });

  it('applies light in a browser without matchMedia, as theme.tsx does', () => {
    vi.stubGlobal('matchMedia', undefined);
    expect(runThemeScript()).toEqual({ className: 'light', colorScheme: 'light' });
    expect(initialTheme()).toBe('light');
  });
});
