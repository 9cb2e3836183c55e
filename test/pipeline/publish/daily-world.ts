import { join } from 'node:path';
import type { Context } from '../../../pipeline/core/context.ts';
import { silentLogger } from '../../../pipeline/core/log.ts';
import { closeDeps, createApp, createDeps } from '../../../serve/index.ts';
import { mountPages } from '../../../serve/pages/index.ts';
import { buildOpenApi } from '../../../site/contract/openapi.ts';
import { makeContext, openTestStore, tempDir, testClock } from '../../helpers/context.ts';
import { seedRaw } from './seed.ts';

/**
 * 30 seeded services with `days` days of history, keeping only the daily-checked ones (the seed's
 * discovered services): within an hour without new checks none of their evidence, terms or criteria
 * moves, so what a publish renders is what the value under test alone makes it render. The clock
 * starts at `t0`; the caller closes the store and calls `cleanup`.
 */
export async function dailyWorld(t0: string, days: number, prefix: string) {
  const { dir, cleanup } = tempDir(prefix);
  const store = await openTestStore(dir);
  await seedRaw(store, new Date(t0), 30, days);
  for (const table of ['checks', 'interval_changes', 'operations', 'services'])
    await store.run(`DELETE FROM ${table} WHERE ${table === 'services' ? 'id' : 'service_id'} LIKE 'svc_%'`);
  const clock = testClock(t0);
  const ctx = makeContext(dir, { clock });
  return { dir, cleanup, store, clock, ctx };
}

/** A GET to the real app (API and server-rendered pages), from a public client address. */
export type Get = (path: string) => Promise<Response>;

/** The real app over `ctx`'s published tree for the length of `fn`, closed afterwards. */
export async function withServedTree<T>(ctx: Context, fn: (get: Get) => Promise<T>): Promise<T> {
  const deps = await createDeps({
    clock: ctx.clock,
    config: ctx.config,
    secret: ctx.secret,
    log: silentLogger,
    siteDir: ctx.paths.publicDir,
    inboxDir: join(ctx.paths.publicDir, '..', 'inbox'),
    replicaId: 'test',
    mounts: [mountPages],
    openapi: buildOpenApi,
  });
  try {
    const app = createApp(deps);
    const incoming = { incoming: { socket: { remoteAddress: '198.51.100.7' } } };
    return await fn((path) => Promise.resolve(app.request(path, undefined, incoming)));
  } finally {
    await closeDeps(deps);
  }
}
