import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixedClock, type Clock } from '../../pipeline/core/clock.ts';
import { defaultConfig, type Config } from '../../pipeline/core/config.ts';
import type { Context } from '../../pipeline/core/context.ts';
import { silentLogger, type Logger } from '../../pipeline/core/log.ts';
import { resolvePaths } from '../../pipeline/core/paths.ts';
import { migrate, openStore, type Store } from '../../pipeline/store/index.ts';

/** A fresh temporary data folder; remove it in `finally` (or afterEach) with `cleanup()`. */
export function tempDir(prefix = 'atlas-test-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A mutable clock for tests: `clock.set(iso)` / `clock.advance(ms)`. */
export interface TestClock extends Clock {
  set(at: string | Date): void;
  advance(ms: number): void;
}

export function testClock(start: string | Date): TestClock {
  let t = new Date(start).getTime();
  const c = (() => new Date(t)) as TestClock;
  c.set = (at) => {
    t = new Date(at).getTime();
  };
  c.advance = (ms) => {
    t += ms;
  };
  return c;
}

export function makeContext(
  dataDir: string,
  overrides: { clock?: Clock; now?: string; config?: Partial<Config>; log?: Logger } = {},
): Context {
  const base = defaultConfig();
  const config: Config = { ...base, ...overrides.config } as Config;
  return {
    clock: overrides.clock ?? fixedClock(new Date(overrides.now ?? '2026-11-25T12:00:00Z')),
    paths: resolvePaths(dataDir),
    config,
    log: overrides.log ?? silentLogger,
    secret: 'test-secret-0123456789abcdef',
  };
}

/** Each DuckDB test opens its own database file, migrated. Close it in `finally`. */
export async function openTestStore(dataDir: string, now = new Date('2026-11-25T12:00:00Z')): Promise<Store> {
  const store = await openStore(join(dataDir, 'atlas.duckdb'));
  await migrate(store, now);
  return store;
}

/** `fn` with its own migrated database in a new temporary folder, closed and removed afterwards. */
export async function withTestStore<T>(fn: (store: Store, dir: string) => Promise<T>, prefix?: string): Promise<T> {
  const t = tempDir(prefix);
  const store = await openTestStore(t.dir);
  try {
    return await fn(store, t.dir);
  } finally {
    store.close();
    t.cleanup();
  }
}
