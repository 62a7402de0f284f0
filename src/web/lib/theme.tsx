import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';

export type Theme = 'light' | 'dark';

const THEME_STORAGE_KEY = 'theme';

function readStoredTheme(): Theme | null {
  try {
    const stored = window.localStorage.getItem(THEME_STORAGE_KEY);
    return stored === 'light' || stored === 'dark' ? stored : null;
  } catch {
    return null;
  }
}

/** docs/product.md §1: the stored value when it is light or dark, else the OS dark preference, else light. */
export function initialTheme(): Theme {
  const stored = readStoredTheme();
  if (stored) return stored;
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

function applyThemeClass(theme: Theme) {
  const root = document.documentElement;
  root.classList.remove(theme === 'dark' ? 'light' : 'dark');
  root.classList.add(theme);
  root.style.colorScheme = theme;
}

type ThemeChoiceListener = (theme: Theme) => void;

interface ThemeContextValue {
  theme: Theme;
  /** Applies a theme, e.g. one loaded from the signed-in user's preferences. Listeners are not told. */
  setTheme: (theme: Theme) => void;
  /** The visitor's own choice: applies the other theme and tells the listeners. */
  toggleTheme: () => void;
  /** Hears the visitor's choices (a signed-in user's are saved to their preferences); returns the unsubscribe function. */
  subscribeToThemeChoice: (listener: ThemeChoiceListener) => () => void;
}

const ThemeContext = createContext<ThemeContextValue | null>(null);

export function ThemeProvider({ children }: { children: ReactNode }) {
  const [theme, setThemeState] = useState<Theme>(() => {
    const theme = initialTheme();
    applyThemeClass(theme);
    return theme;
  });

  const setTheme = useCallback((next: Theme) => {
    applyThemeClass(next);
    try {
      window.localStorage.setItem(THEME_STORAGE_KEY, next);
    } catch {
      // Storage can be full or disabled; the theme still applies for this visit.
    }
    setThemeState(next);
  }, []);

  // Signed-out visitors have no listener: their choice lives in local storage only.
  const [listeners] = useState(() => new Set<ThemeChoiceListener>());
  const subscribeToThemeChoice = useCallback(
    (listener: ThemeChoiceListener) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    [listeners],
  );

  const value = useMemo(
    () => ({
      theme,
      setTheme,
      toggleTheme: () => {
        const next = theme === 'dark' ? 'light' : 'dark';
        setTheme(next);
        for (const listener of listeners) listener(next);
      },
      subscribeToThemeChoice,
    }),
    [theme, setTheme, listeners, subscribeToThemeChoice],
  );
  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}

export function useTheme(): ThemeContextValue {
  const value = useContext(ThemeContext);
  if (!value) throw new Error('useTheme must be used inside ThemeProvider');
  return value;
}
