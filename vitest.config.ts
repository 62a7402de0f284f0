import { availableParallelism } from 'node:os';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { reactOnPreact } from './scripts/react-on-preact';

const webTestAliases = [
  ...reactOnPreact,
  // It has no exports map to pick its ES module by; its main entry is CommonJS.
  { find: /^@testing-library\/react$/, replacement: '@testing-library/react/dist/@testing-library/react.esm.js' },
];

/**
 * Resolves libraries to their browser builds, as the app's build does: their ES modules' imports of
 * React are what the alias rewrites, where the Node builds vitest picks by default are CommonJS whose
 * require would load React itself. vitest sets the server's conditions and main fields for every
 * environment, and a config's own lists would be added to them, not replace them.
 */
function browserBuildsOfLibraries(): Plugin {
  return {
    name: 'voxline:browser-builds-of-libraries',
    configEnvironment: {
      order: 'post',
      handler(_name, config) {
        config.resolve = { ...config.resolve, conditions: ['module', 'browser', 'development|production'], mainFields: ['browser', 'module', 'jsnext:main', 'jsnext'] };
      },
    },
  };
}

export default defineConfig({
  test: {
    // Most files wait on servers, databases and sockets more than they compute: two at a time
    // overlap those waits even on a two-core machine, where vitest's default would run one.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['src/server/**/*.test.ts', 'src/common/**/*.test.ts', 'src/dsp/**/*.test.ts', 'tests/integration/**/*.test.ts', 'tests/project/**/*.test.ts', 'tests/security/**/*.test.ts', 'tests/support/**/*.test.ts', 'bench/**/*.test.ts', 'scripts/**/*.test.ts'],
          globalSetup: ['tests/support/database-snapshot.ts'],
          setupFiles: ['tests/support/fail-on-console-error.ts'],
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [react(), browserBuildsOfLibraries()],
        resolve: { alias: webTestAliases },
        test: {
          // Libraries are transformed by Vite here, so that the alias reaches their imports of React.
          server: { deps: { inline: true } },
          name: 'web',
          environment: 'jsdom',
          include: ['src/web/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/support/web-setup.ts', 'tests/support/fail-on-console-error.ts'],
          // Parts a page loads after it shows (a dialog, a popover, the phone library) are transformed
          // on first use, inside the test that opens them: on a loaded machine that alone took 5 s.
          testTimeout: 15_000,
        },
      },
    ],
  },
});
