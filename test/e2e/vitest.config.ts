import { defineConfig } from 'vitest/config';
import { loopbackOnly } from '../net/install.ts';

// Browser tests (`npm run test:e2e`): Debian's Chromium driven by playwright-core against a real
// demo world started in-process. Slow by nature, so kept out of `npm test`. Behind the same
// loopback-only guard as every other test (test/net/install.ts).
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.test.ts'],
    ...loopbackOnly(),
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
