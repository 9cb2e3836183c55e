import { defineConfig } from 'vitest/config';

// Unit and integration tests. Browser tests live under test/e2e and have their own config.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
