import { randomBytes } from 'node:crypto';
import type { Hono } from 'hono';
import type { Clock } from '../pipeline/core/clock.ts';
import type { Config } from '../pipeline/core/config.ts';
import type { Logger } from '../pipeline/core/log.ts';
import type { SearchAnswer } from './operations/search-services.ts';
import { openCluster } from '../pipeline/core/postgres.ts';
import { PgWriteStore } from './inbox/pg-write-store.ts';
import { pgRequestWindows } from './inbox/pg-request-windows.ts';
import { WriteStore } from './inbox/write-store.ts';
import type { Writes } from './inbox/writes.ts';
import { memoryWindows, type RequestWindows } from './middleware/rate-limit.ts';
import { createServeMetrics, type ServeMetrics } from './metrics/registry.ts';
import { ResultCache } from './search/cache.ts';
import { DetailCache } from './site/details.ts';
import { createSiteHolder, type SiteHolder } from './site/holder.ts';

/** Something that adds routes to the app (the MCP endpoint, the HTML pages). */
export type Mount = (app: Hono, deps: AppDeps) => void;

/**
 * Everything the server's routes and operations need, injected (CONTRACTS.md "Server"): the clock
 * (every time rule reads it), the config (`serve.*`), the installation secret (address hashes,
 * referral ids), the loaded published tree and the write store. Tests build it over a temp folder.
 */
export interface AppDeps {
  clock: Clock;
  config: Config;
  secret: string;
  log: Logger;
  site: SiteHolder;
  /** The inbox logs of the data folder, or PostgreSQL when `cluster.postgres` is set. */
  writes: Writes;
  /** The per-minute request counts: this replica's memory, or shared through PostgreSQL. */
  requestWindows: RequestWindows;
  /** Search results per (generation, normalized query), up to 5 minutes (docs/design.md, search results). */
  searchCache: ResultCache<SearchAnswer>;
  details: DetailCache;
  /** This app's Prometheus metrics (its own registry), served at GET /metrics. */
  metrics: ServeMetrics;
  /** Randomness for key values and ids (injectable for tests). */
  random: (n: number) => Buffer;
  /** Route groups mounted after the API (MCP, pages); required, so no caller forgets them silently. */
  mounts: Mount[];
  /** Builds `/openapi.json` from the contract; required (no fallback to a published copy). */
  openapi: () => unknown;
}

export interface CreateDepsOptions {
  clock: Clock;
  config: Config;
  secret: string;
  log: Logger;
  /** Published tree root (holds `current`). */
  siteDir: string;
  /** `<data>/inbox`. */
  inboxDir: string;
  /** This replica's log suffix (`<kind>-<replica>.jsonl`). */
  replicaId: string;
  /** Route groups mounted after the API (serverParts() in serve/mounts.ts for the real server). */
  mounts: Mount[];
  /** The OpenAPI builder (serverParts() for the real server). */
  openapi: () => unknown;
  random?: (n: number) => Buffer;
}

/**
 * Load the current generation (if any) and rebuild the write indexes from the inbox logs.
 * Does not start watching: call `deps.site.watch()` for a long-running server, and
 * `closeDeps(deps)` when done.
 */
export async function createDeps(opts: CreateDepsOptions): Promise<AppDeps> {
  const site = createSiteHolder({ siteDir: opts.siteDir, clock: opts.clock, log: opts.log });
  await site.reload();
  // At most 500 keys (a result may also sit under its raw query string): at most a few tens of
  // megabytes (an entry keeps what renders its answer, and its bytes once the query is asked again).
  const searchCache = new ResultCache<SearchAnswer>(5 * 60_000, 500);
  // Entries are keyed by generation too; clearing on swap just frees the memory early.
  site.onSwap(() => searchCache.clear());
  const metrics = createServeMetrics({ clock: opts.clock, generation: () => site.peek() });
  const { writes, requestWindows } = await openWrites(opts);
  writes.observeWrites((kind, seconds) => metrics.inboxAppend(kind, seconds));
  return {
    clock: opts.clock,
    config: opts.config,
    secret: opts.secret,
    log: opts.log,
    site,
    writes,
    requestWindows,
    searchCache,
    details: new DetailCache(),
    metrics,
    random: opts.random ?? randomBytes,
    mounts: opts.mounts,
    openapi: opts.openapi,
  };
}

/**
 * The write store by config: without `cluster.postgres`, the inbox logs of `<data>/inbox` and
 * in-memory request windows, exactly as on one machine; with it, PostgreSQL for both. Opening the
 * PostgreSQL pool connects nobody yet: a server started while PostgreSQL is down serves reads and
 * answers writes 503 until it is back (`atlas init` creates the tables).
 */
async function openWrites(opts: CreateDepsOptions): Promise<{ writes: Writes; requestWindows: RequestWindows }> {
  const url = opts.config.cluster.postgres;
  if (!url) return { writes: await WriteStore.open(opts.inboxDir, opts.replicaId, opts.clock()), requestWindows: memoryWindows() };
  const cluster = openCluster(url, {
    applicationName: `atlas serve ${opts.replicaId}`,
    connectTimeoutMs: 3000,
    queryTimeoutMs: 10_000,
  });
  opts.log.info('serve: keys, outcome reports, feedback and request limits go to PostgreSQL (cluster.postgres)', {
    postgres: cluster.where,
  });
  return {
    writes: new PgWriteStore(cluster),
    requestWindows: pgRequestWindows({ cluster, secret: opts.secret, fallback: memoryWindows(), log: opts.log }),
  };
}

export async function closeDeps(deps: AppDeps): Promise<void> {
  deps.site.close();
  await deps.writes.close();
}
