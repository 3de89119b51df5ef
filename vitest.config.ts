import { defineConfig } from 'vitest/config';

// Three levels: unit tests beside their source, integration tests with real host/MCP processes,
// end-to-end tests with real headless Chromium and the built extension. Each level runs as its
// own group, one after the other (sequence.groupOrder): on two cores, browsers and process
// swarms from different levels at once only make each other slow and flaky.
export default defineConfig({
  // `#shared/*` and `#test/*` (package.json imports) resolve to the TypeScript sources, never to dist/.
  ssr: { resolve: { conditions: ['x-ipe-source'] } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          sequence: { groupOrder: 0 },
          include: ['{shared,native-host,mcp,cli,extension}/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          sequence: { groupOrder: 1 },
          globalSetup: ['test/global-setup.ts'],
          include: ['test/integration/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
          maxWorkers: 2,
        },
      },
      {
        extends: true,
        test: {
          name: 'faults',
          sequence: { groupOrder: 2 },
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
        extends: true,
        test: {
          name: 'e2e',
          sequence: { groupOrder: 3 },
          globalSetup: ['test/global-setup.ts'],
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // Each file launches its own Chromium and drives real input: one file at a time keeps
          // two cores from starving a browser mid-gesture.
          maxWorkers: 1,
        },
      },
    ],
  },
});
