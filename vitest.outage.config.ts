import { defineConfig } from 'vitest/config';

/** `npm run test:outage`: stops and starts the machine's Redis and PostgreSQL, so it runs alone, after `npm test`. */
export default defineConfig({
  test: {
    name: 'outage',
    environment: 'node',
    include: ['tests/outage/**/*.test.ts'],
    setupFiles: ['tests/support/fail-on-console-error.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
