import { McpStatus } from '../../../site/contract/common.ts';
import type { Context } from '../../core/context.ts';
import type { Store } from '../../store/store.ts';
import { mergeDiscovered, type DiscoveredRecord, type MergeCounts } from '../discovered.ts';
import { withIngestRun } from '../runs.ts';
import type { ReasonCounts } from '../skips.ts';
import { httpJsonFetcher, readSourceFile, resolveSource, type JsonFetcher } from '../source.ts';
import { readSyncState, syncKey, writeSyncState } from '../sync-state.ts';
import { compileResolveMap } from '../../probe/resolve-map.ts';
import { normalizeMcpEntry, type McpQuirk, type McpSkipReason } from './normalize.ts';
import { DEFAULT_MCP_SWEEP, sweepMcpDocument, sweepMcpUrl, type McpSweep } from './sweep.ts';

/**
 * `atlas ingest mcp`: read the MCP registry (URL or snapshot file) and merge it in ONE transaction
 * after all I/O is done (a failure anywhere leaves the database unchanged).
 *
 * Full or incremental:
 * - URL source with a previous sync time in `sync_state` (and no `full`): only `updated_since`
 *   changes are fetched. Absence from an incremental answer means "unchanged", so nothing is
 *   delisted by absence; takedowns arrive as `deleted` entries (the registry includes them).
 * - Otherwise (first sync, `full: true`, or a snapshot file): a full sweep; when it completes,
 *   services of this registry that it did not contain are delisted.
 * The next `updated_since` is the time this sync STARTED, so changes made during it are seen again.
 */
export interface McpIngestOptions {
  source: string;
  /** Registry name recorded with each service (default `official`). */
  registry?: string;
  /** Ignore the stored sync time and read everything. */
  full?: boolean;
  pageSize?: number;
  maxPages?: number;
  delayMs?: number;
  fetcher?: JsonFetcher;
}

export interface McpIngestCounts extends MergeCounts {
  mode: 'full' | 'incremental';
  updated_since: string | null;
  pages: number;
  rows: number;
  servers: number;
  invalid_item: number;
  no_remotes: number;
  invalid_remote: number;
  invalid_url: number;
  templated: number;
  /** Remotes of entries whose status is `deleted` (unlisted when tracked). */
  deleted: number;
  /** Remotes of entries whose status is `deprecated` (unlisted when tracked). */
  deprecated: number;
  complete: boolean;
  /** What became no service, by reason: entries (`invalid_item`, `older_version`, `no_remotes`),
   * remotes (`invalid_remote`, `invalid_url`, `duplicate_remote`, `not_https`,
   * `unfilled_placeholder`) and remotes of deleted or deprecated entries never tracked
   * (`withdrawn_untracked`). */
  skipped: ReasonCounts;
  /** Quirks of what was kept (see McpQuirk). */
  noted: Partial<Record<McpQuirk, number>>;
}

export interface McpIngestResult {
  registry: string;
  source: string;
  runId: string;
  counts: McpIngestCounts;
}

export async function ingestMcp(ctx: Context, store: Store, opts: McpIngestOptions): Promise<McpIngestResult> {
  const registry = opts.registry ?? 'official';
  const ref = resolveSource(opts.source);
  const startedAt = ctx.clock();
  const state = await readSyncState(store, syncKey('mcp', registry));
  const updatedSince = ref.kind === 'url' && !opts.full ? (state?.lastSyncAt ?? undefined) : undefined;
  const mode = updatedSince ? 'incremental' : 'full';
  return withIngestRun(
    store,
    'ingest_mcp',
    ctx.clock,
    { source: opts.source, registry, mode, updated_since: updatedSince ?? null },
    async () => {
      const sweep: McpSweep =
        ref.kind === 'file'
          ? sweepMcpDocument(readSourceFile(ref.path), ref.path)
          : await sweepMcpUrl(opts.fetcher ?? httpJsonFetcher({ userAgent: ctx.config.probe.userAgent }), ref.url, {
              pageSize: opts.pageSize ?? DEFAULT_MCP_SWEEP.pageSize,
              maxPages: opts.maxPages ?? DEFAULT_MCP_SWEEP.maxPages,
              delayMs: opts.delayMs ?? DEFAULT_MCP_SWEEP.delayMs,
              ...(updatedSince ? { updatedSince } : {}),
            });

      const skipped: Record<McpSkipReason, number> = {
        invalid_item: sweep.invalid_item,
        no_remotes: 0,
        invalid_remote: 0,
        invalid_url: 0,
        duplicate_remote: 0,
        not_https: 0,
        unfilled_placeholder: 0,
      };
      const resolved = compileResolveMap(ctx.config.probe.resolve);
      const plainHttpHost = (host: string) => resolved(host) !== null;
      const noted: Partial<Record<McpQuirk, number>> = {};
      const records: DiscoveredRecord[] = [];
      const ids = new Set<string>();
      for (const entry of sweep.entries) {
        const n = normalizeMcpEntry(entry, ctx.secret, { plainHttpHost });
        for (const [k, v] of Object.entries(n.skipped)) skipped[k as McpSkipReason] += v ?? 0;
        for (const [k, v] of Object.entries(n.noted)) noted[k as McpQuirk] = (noted[k as McpQuirk] ?? 0) + (v ?? 0);
        for (const r of n.records) {
          if (ids.has(r.id)) {
            skipped.duplicate_remote++;
            continue;
          }
          ids.add(r.id);
          records.push(r);
        }
      }

      const now = ctx.clock();
      const delistMissing = mode === 'full' && sweep.complete;
      const merged = await store.transaction(async () => {
        const m = await mergeDiscovered(store, records, { registry, protocol: 'mcp', now, delistMissing });
        await writeSyncState(store, syncKey('mcp', registry), startedAt, delistMissing, { mode, pages: sweep.pages, seen: m.seen });
        return m;
      });
      const counts: McpIngestCounts = {
        ...merged,
        mode,
        updated_since: updatedSince ?? null,
        pages: sweep.pages,
        rows: sweep.rows,
        servers: sweep.entries.length,
        ...skipped,
        templated: records.filter((r) => r.templated_url).length,
        deleted: records.filter((r) => r.mcp_status === McpStatus.enum.deleted).length,
        deprecated: records.filter((r) => r.mcp_status === McpStatus.enum.deprecated).length,
        complete: sweep.complete,
        skipped: { ...skipped, older_version: sweep.older_version, withdrawn_untracked: merged.skipped_unknown_unlisted },
        noted,
      };
      if (!sweep.complete)
        ctx.log.warn(`mcp registry ${registry}: sweep ended early (page cap or repeated cursor); nothing delisted by absence`);
      return { registry, source: opts.source, counts, status: sweep.complete ? ('ok' as const) : ('partial' as const) };
    },
  );
}
