import type { Alias } from 'vite';

/**
 * The browser runs the app's React code on Preact's compatibility layer: React with react-dom is
 * 67.6 kB gzip before any page, Preact with compat about 11 (decision 041). Every import of React,
 * the app's and its libraries', resolves here, in the build and in the web unit tests alike.
 */
export const reactOnPreact: Alias[] = [
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom\/test-utils$/, replacement: 'preact/test-utils' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
  { find: /^react$/, replacement: 'preact/compat' },
];
