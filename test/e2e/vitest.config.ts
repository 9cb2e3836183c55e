import { defineConfig } from 'vitest/config';

// Browser tests (`npm run test:e2e`): Debian's Chromium driven by playwright-core against a real
// demo world started in-process. Slow by nature, so kept out of `npm test`.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
