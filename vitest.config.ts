import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'conformance',
          include: ['tests/**/*.test.ts'],
          globalSetup: ['src/vitest/global-setup.ts'],
          // One worker holds the run's state (client pool, write budget, ledger); checks run
          // concurrently inside it and the client's pool bounds requests in flight.
          pool: 'threads',
          maxWorkers: 1,
          isolate: false,
          maxConcurrency: 256,
          testTimeout: 600_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'self',
          include: ['self-tests/**/*.test.ts'],
          testTimeout: 120_000,
        },
      },
    ],
  },
});
