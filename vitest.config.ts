import { defineConfig } from 'vitest/config';
import { loopbackOnly } from './test/net/install.ts';

// Unit and integration tests. Browser tests live under test/e2e and have their own config.
// Every test runs behind the loopback-only guard (test/net/install.ts): it refuses non-loopback
// connects and fails the test that tried one.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // *.scale.test.ts run at benchmark size and only with `npm run test:scale` (vitest.scale.config.ts);
    // each has a small-scale sibling here that asserts the same properties.
    exclude: ['test/e2e/**', 'node_modules/**', 'test/**/*.scale.test.ts'],
    ...loopbackOnly(),
    // A test that hangs fails in 10 s, not a minute. The tests that legitimately need longer (real
    // cycles, child processes, worlds of thousands of rows) state their own timeout beside them.
    // Hooks start whole worlds (fleets, databases, servers) and keep a minute.
    testTimeout: 10_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two workers even on two cores: many tests spend their time waiting on sockets and child
    // processes, so the default (cores − 1 = one worker here) left a core idle (315 s → 197 s).
    maxWorkers: 2,
  },
});
