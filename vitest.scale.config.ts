import { defineConfig } from 'vitest/config';
import { loopbackOnly } from './test/net/install.ts';

// `npm run test:scale`: the tests that run at benchmark size (tens of thousands of endpoints), kept
// out of `npm test` and CI (vitest.config.ts excludes them). They assert properties, never timings;
// figures belong to `npm run bench`. Same loopback-only guard as every other test.
export default defineConfig({
  test: {
    include: ['test/**/*.scale.test.ts'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    ...loopbackOnly(),
    testTimeout: 300_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 1,
  },
});
