import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['src/server/**/*.test.ts', 'src/common/**/*.test.ts', 'src/dsp/**/*.test.ts', 'tests/integration/**/*.test.ts', 'tests/project/**/*.test.ts', 'tests/security/**/*.test.ts', 'tests/support/**/*.test.ts', 'bench/**/*.test.ts'],
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
