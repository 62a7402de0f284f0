import { createRequire } from 'node:module';
import path from 'node:path';
import type { Alias } from 'vite';

const routerRoot = path.dirname(createRequire(import.meta.url).resolve('react-router/package.json'));

/**
 * react-router 7's package exports name its development build under every condition a bundler
 * uses; the production build beside it differs only in leaving out the development warnings,
 * which otherwise run on every render of the routes. The web app's build takes the production one;
 * the development server and the tests keep the warnings.
 */
export const reactRouterProduction: Alias[] = [
  { find: /^react-router$/, replacement: path.join(routerRoot, 'dist/production/index.mjs') },
  { find: /^react-router\/dom$/, replacement: path.join(routerRoot, 'dist/production/dom-export.mjs') },
];
