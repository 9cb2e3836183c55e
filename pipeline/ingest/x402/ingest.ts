import { CheckKind } from '../../../site/contract/common.ts';
import type { Context } from '../../core/context.ts';
import { DECOY_PRICE_USD } from '../../../site/contract/networks.ts';
import type { Store } from '../../store/store.ts';
import { mergeDiscovered, type DiscoveredRecord, type MergeCounts } from '../discovered.ts';
import { withIngestRun } from '../runs.ts';
import { type ReasonCounts, tally } from '../skips.ts';
import { httpJsonFetcher, readSourceFile, resolveSource, type JsonFetcher } from '../source.ts';
import { syncKey, writeSyncState } from '../sync-state.ts';
import { normalizeX402Item, type X402Quirk, type X402SkipReason } from './normalize.ts';
import { DEFAULT_X402_SWEEP, sweepX402Document, sweepX402Url, type X402Sweep } from './sweep.ts';

/**
 * `atlas ingest x402`: read a whole discovery/resources registry (URL or snapshot file), then merge
 * it in ONE transaction. All network I/O happens before the transaction, so a failure mid-sweep
 * (fetch error, malformed page) throws before anything is written: the database is unchanged, and
 * the run is recorded as failed. Only a complete sweep delists what it did not contain.
 */
export interface X402IngestOptions {
  /** URL of the list endpoint (`…/discovery/resources`) or of a mirror, or a snapshot file (see sweepX402Document). */
  source: string;
  /** Registry name recorded with each service (default `cdp`). */
  registry?: string;
  pageSize?: number;
  maxPages?: number;
  /** Injected for tests; default: undici with timeouts and retries. */
  fetcher?: JsonFetcher;
}

export interface X402IngestCounts extends MergeCounts {
  pages: number;
  rows: number;
  duplicates: number;
  invalid_item: number;
  invalid_url: number;
  /** Rows of an unknown `type` (neither `http` nor `mcp`); the older name of `unknown_type`, kept for readers of old runs. */
  not_http: number;
  unknown_type: number;
  /** `type: "mcp"` items without an http(s) server URL (nothing to probe). */
  mcp_no_endpoint: number;
  /** `type: "mcp"` items kept as MCP servers (services of type mcp_server, rule mcp-reach/3). */
  mcp_servers: number;
  /** Invalid optional metadata fields dropped (the resources kept), per field (metadata.ts). */
  dropped_fields: Record<string, number>;
  templated: number;
  priced: number;
  decoy_prices: number;
  complete: boolean;
  /** Rows that became no service, by reason (the flat fields above, plus `duplicate_id`). */
  skipped: ReasonCounts;
  /** Registry quirks of items that were kept, items per quirk (see X402Quirk). */
  noted: Partial<Record<X402Quirk, number>>;
}

export interface X402IngestResult {
  registry: string;
  source: string;
  runId: string;
  counts: X402IngestCounts;
}

export async function ingestX402(ctx: Context, store: Store, opts: X402IngestOptions): Promise<X402IngestResult> {
  const registry = opts.registry ?? 'cdp';
  const ref = resolveSource(opts.source);
  const sweepOpts = { pageSize: opts.pageSize ?? DEFAULT_X402_SWEEP.pageSize, maxPages: opts.maxPages ?? DEFAULT_X402_SWEEP.maxPages };
  return withIngestRun(store, 'ingest_x402', ctx.clock, { source: opts.source, registry, ...sweepOpts }, async () => {
    const sweep: X402Sweep =
      ref.kind === 'file'
        ? sweepX402Document(readSourceFile(ref.path), ref.path)
        : await sweepX402Url(opts.fetcher ?? httpJsonFetcher({ userAgent: ctx.config.probe.userAgent }), ref.url, sweepOpts);

    const skipped: Record<X402SkipReason, number> = {
      invalid_item: sweep.invalid_item,
      invalid_url: 0,
      unknown_type: sweep.unknown_type,
      mcp_no_endpoint: 0,
    };
    const noted: Partial<Record<X402Quirk, number>> = {};
    const droppedFields: Record<string, number> = {};
    const records: DiscoveredRecord[] = [];
    const ids = new Set<string>();
    // The sweep keeps one item per URL and the id is method + URL, so this stays 0; counted, not assumed.
    let duplicateIds = 0;
    for (const it of sweep.items) {
      const n = normalizeX402Item(it.raw, { pageVersion: it.pageVersion, secret: ctx.secret });
      if (!n.ok) {
        skipped[n.reason]++;
        continue;
      }
      if (ids.has(n.record.id)) {
        duplicateIds++;
        continue;
      }
      ids.add(n.record.id);
      records.push(n.record);
      tally(noted, n.quirks);
      tally(droppedFields, n.dropped);
    }

    const now = ctx.clock();
    const merged = await store.transaction(async () => {
      const m = await mergeDiscovered(store, records, { registry, protocol: 'x402', now, delistMissing: sweep.complete });
      await writeSyncState(store, syncKey('x402', registry), now, sweep.complete, { pages: sweep.pages, seen: m.seen });
      return m;
    });

    const counts: X402IngestCounts = {
      ...merged,
      pages: sweep.pages,
      rows: sweep.rows,
      duplicates: sweep.duplicates,
      ...skipped,
      not_http: skipped.unknown_type,
      mcp_servers: records.filter((r) => r.protocol === CheckKind.enum.mcp).length,
      dropped_fields: droppedFields,
      templated: records.filter((r) => r.templated_url).length,
      priced: records.filter((r) => r.registry_price_usd !== null).length,
      decoy_prices: records.filter((r) => (r.registry_price_usd ?? 0) >= DECOY_PRICE_USD).length,
      complete: sweep.complete,
      skipped: { ...skipped, duplicate: sweep.duplicates, duplicate_id: duplicateIds },
      noted,
    };
    if (!sweep.complete) ctx.log.warn(`x402 registry ${registry}: stopped after ${sweep.pages} pages (cap); nothing delisted this run`);
    const bad = skipped.invalid_item + skipped.invalid_url;
    if (bad)
      ctx.log.warn(
        `x402 registry ${registry}: skipped ${bad} unusable row(s) (${skipped.invalid_item} malformed, ${skipped.invalid_url} without a usable http(s) URL)`,
      );
    return { registry, source: opts.source, counts, status: sweep.complete ? ('ok' as const) : ('partial' as const) };
  });
}
