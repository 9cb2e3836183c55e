import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Clock } from '../../pipeline/core/clock.ts';
import type { InboxKind } from '../../site/contract/inbox-records.ts';
import type { SiteState } from '../site/state.ts';

/**
 * The server's own Prometheus metrics (docs/operations.md "Metrics"). One `Registry` per app — never
 * prom-client's global default — so tests and several apps in one process keep separate counts.
 * Label values are bounded: routes are the registered route patterns (never the raw path), statuses
 * are HTTP codes, inbox kinds are the fixed InboxKind union.
 */
export interface ServeMetrics {
  readonly registry: Registry;
  /** One finished request: its route pattern, method and status, and its duration in seconds. */
  request(route: string, method: string, status: number, seconds: number): void;
  /** One search answered from the result cache (`true`) or computed (`false`). */
  searchLookup(hit: boolean): void;
  /** One inbox record written and fsynced; `seconds` is the write + fsync time. */
  inboxAppend(kind: InboxKind, seconds: number): void;
}

export interface ServeMetricsOptions {
  /** The server's injected clock: the generation's age is `clock() - generated_at` at scrape time. */
  clock: Clock;
  /** The loaded generation, read at scrape time (null before the first publish). */
  generation: () => Pick<SiteState, 'generation' | 'generatedAt'> | null;
}

/**
 * Latency buckets for an in-memory server: most answers take well under a millisecond to a few
 * milliseconds; the top buckets catch a slow disk (inbox fsync) or a large search.
 */
export const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/** Methods outside this set are counted as `OTHER`, so a client cannot grow the label set. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export function createServeMetrics(opts: ServeMetricsOptions): ServeMetrics {
  const registry = new Registry();
  const requests = new Counter({
    name: 'atlas_http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status (GET /metrics itself is not counted).',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'atlas_http_request_duration_seconds',
    help: 'Time from the request reaching the app to its response being ready, by route pattern and method.',
    labelNames: ['route', 'method'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const cache = new Counter({
    name: 'atlas_search_cache_lookups_total',
    help: 'Searches answered from the result cache (result="hit") or computed afresh (result="miss").',
    labelNames: ['result'] as const,
    registers: [registry],
  });
  // Both series exist from the start, so a rate over them is defined before the first search.
  cache.inc({ result: 'hit' }, 0);
  cache.inc({ result: 'miss' }, 0);
  const appends = new Counter({
    name: 'atlas_inbox_appends_total',
    help: 'Inbox records written and fsynced (keys, outcomes, feedback).',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  const fsync = new Histogram({
    name: 'atlas_inbox_fsync_seconds',
    help: 'Time to write one inbox record and fsync it (a write is acknowledged only after this).',
    labelNames: ['kind'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  new Gauge({
    name: 'atlas_generation_info',
    help: 'The published generation the server has loaded (value 1; the id is the label). Absent before the first publish.',
    labelNames: ['generation'] as const,
    registers: [registry],
    collect() {
      this.reset(); // only the generation loaded now, not every one seen since start
      const g = opts.generation();
      if (g) this.set({ generation: g.generation }, 1);
    },
  });
  new Gauge({
    name: 'atlas_generation_age_seconds',
    help: "Seconds from the loaded generation's generated_at to now (the server's clock). Absent before the first publish.",
    // Labelled like the info gauge: an unlabelled gauge would read 0 (a fresh generation) before any.
    labelNames: ['generation'] as const,
    registers: [registry],
    collect() {
      this.reset();
      const g = opts.generation();
      const at = g ? Date.parse(g.generatedAt) : Number.NaN;
      if (g && Number.isFinite(at)) this.set({ generation: g.generation }, (opts.clock().getTime() - at) / 1000);
    },
  });

  return {
    registry,
    request(route, method, status, seconds) {
      const m = METHODS.has(method) ? method : 'OTHER';
      requests.inc({ route, method: m, status: String(status) });
      duration.observe({ route, method: m }, seconds);
    },
    searchLookup(hit) {
      cache.inc({ result: hit ? 'hit' : 'miss' });
    },
    inboxAppend(kind, seconds) {
      appends.inc({ kind });
      fsync.observe({ kind }, seconds);
    },
  };
}
