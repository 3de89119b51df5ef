import { defineConfig } from 'vitest/config';

// Three levels: unit tests beside their source, integration tests with real host/MCP processes,
// end-to-end tests with real headless Chromium and the built extension.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['{shared,native-host,mcp,cli,extension}/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          globalSetup: ['test/global-setup.ts'],
          include: ['test/integration/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'faults',
          globalSetup: ['test/global-setup.ts'],
          include: ['test/faults/**/*.test.ts'],
          environment: 'node',
          // Real host and MCP processes; two cores, so at most two files at once.
          testTimeout: 90_000,
          hookTimeout: 60_000,
          maxWorkers: 2,
        },
      },
      {
        test: {
          name: 'e2e',
          globalSetup: ['test/global-setup.ts'],
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // Each file launches its own Chromium; two cores, so keep it to two at a time.
          maxWorkers: 2,
        },
      },
    ],
  },
});
