import { availableParallelism } from 'node:os';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

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
        plugins: [react()],
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['src/web/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/support/web-setup.ts', 'tests/support/fail-on-console-error.ts'],
        },
      },
    ],
  },
});
