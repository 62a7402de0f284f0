import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ThemeToggle } from '../components/theme-toggle';
import { useEffect } from 'react';
import { initialTheme, ThemeProvider, useTheme, type Theme } from './theme';

function preferDark(dark: boolean) {
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) => ({ matches: dark && query === '(prefers-color-scheme: dark)', media: query }) as MediaQueryList,
  );
}

afterEach(() => vi.restoreAllMocks());

describe('initialTheme', () => {
  it('uses the stored value when it is light or dark', () => {
    preferDark(true);
    window.localStorage.setItem('theme', 'light');
    expect(initialTheme()).toBe('light');
    window.localStorage.setItem('theme', 'dark');
    preferDark(false);
    expect(initialTheme()).toBe('dark');
  });

  it('follows the OS preference when nothing valid is stored, else light', () => {
    window.localStorage.setItem('theme', 'purple');
    preferDark(true);
    expect(initialTheme()).toBe('dark');
    preferDark(false);
    expect(initialTheme()).toBe('light');
  });
});

describe('ThemeToggle', () => {
  it('swaps the root class, saves the choice and renames itself', async () => {
    preferDark(false);
    render(
      <ThemeProvider>
        <ThemeToggle />
      </ThemeProvider>,
    );
    const root = document.documentElement;
    expect(root).toHaveClass('light');
    expect(window.localStorage.getItem('theme')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Switch to dark mode' }));
    expect(root).toHaveClass('dark');
    expect(root).not.toHaveClass('light');
    expect(window.localStorage.getItem('theme')).toBe('dark');

    await userEvent.click(screen.getByRole('button', { name: 'Switch to light mode' }));
    expect(root).toHaveClass('light');
    expect(root).not.toHaveClass('dark');
    expect(window.localStorage.getItem('theme')).toBe('light');
  });
});

describe('subscribeToThemeChoice', () => {
  it("hears the visitor's toggles, not themes applied by the app", async () => {
    preferDark(false);
    const heard: Theme[] = [];
    function Probe() {
      const { setTheme, subscribeToThemeChoice } = useTheme();
      useEffect(() => subscribeToThemeChoice((theme) => heard.push(theme)), [subscribeToThemeChoice]);
      return (
        <button type="button" onClick={() => setTheme('dark')}>
          Apply dark
        </button>
      );
    }
    render(
      <ThemeProvider>
        <Probe />
        <ThemeToggle />
      </ThemeProvider>,
    );

    await userEvent.click(screen.getByRole('button', { name: 'Apply dark' }));
    expect(document.documentElement).toHaveClass('dark');
    expect(heard).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Switch to light mode' }));
    expect(heard).toEqual(['light']);
  });
});
