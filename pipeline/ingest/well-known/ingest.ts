import { readFileSync } from 'node:fs';
import { RunStatus } from '../../../site/contract/common.ts';
import type { Context } from '../../core/context.ts';
import type { EdgeOptions } from '../../probe/safe-fetch.ts';
import type { Store } from '../../store/store.ts';
import { mergeDiscovered, noMerges, type DiscoveredRecord, type MergeCounts } from '../discovered.ts';
import { withIngestRun } from '../runs.ts';
import type { ReasonCounts } from '../skips.ts';
import { fetchWellKnown, WELL_KNOWN_MAX_BYTES, type WellKnownFetched } from './fetch.ts';
import { parseOrigins, wellKnownRegistry } from './origins.ts';
import { parseWellKnown } from './parse.ts';
import { wellKnownRecords } from './records.ts';

/**
 * `atlas ingest well-known --origins FILE`: read each origin's `/.well-known/x402` through the probe's
 * guarded edge (fetch.ts), parse it (parse.ts), and merge the declared resources as discovered x402
 * services in ONE transaction after all I/O (a failure leaves the database unchanged).
 *
 * Provenance: each origin is its own source, registry name `well-known:<host[:port]>`, so the
 * services, listing events and delistings of one origin never touch another's. An origin whose
 * document was read (whatever its dialect) is a complete sweep of that origin: what it declared
 * before and no longer declares goes unlisted. An origin that could not be read (a fetch failure,
 * a redirect, a non-200, not JSON) changes nothing, so an outage never delists.
 *
 * A resource whose service another source already tracks (a discovery registry, or an earlier origin
 * in the list) is not taken over: it is counted as `listed_by_other_source` and left as it is.
 */
export interface WellKnownIngestOptions {
  /** The origins file (origins.ts), or the origins themselves. */
  originsFile?: string;
  origins?: readonly string[];
  /** Overrides of the edge options (tests: a resolver, timeouts); default from config.probe. */
  edge?: Partial<EdgeOptions>;
  /** Documents fetched at once. */
  concurrency?: number;
}

export interface WellKnownIngestCounts extends MergeCounts {
  origins: number;
  /** Origins whose document was read. */
  read: number;
  /** Origins per outcome: the dialect of a document read, or why none was. */
  outcomes: ReasonCounts;
  /** Resources declared by the documents read (before skips). */
  declared: number;
  /** Declared resources that became no service, by reason (parse.ts, plus `listed_by_other_source`). */
  skipped: ReasonCounts;
  /** Quirks of the resources kept. */
  noted: ReasonCounts;
}

export interface WellKnownOriginResult {
  origin: string;
  registry: string;
  outcome: string;
  detail: string | null;
  resources: number;
}

export interface WellKnownIngestResult {
  runId: string;
  counts: WellKnownIngestCounts;
  origins: WellKnownOriginResult[];
}

const add = (into: ReasonCounts, from: Partial<Record<string, number>>) => {
  for (const [k, v] of Object.entries(from)) if (v) into[k] = (into[k] ?? 0) + v;
};

async function fetchAll(
  origins: readonly string[],
  edge: EdgeOptions,
  userAgent: string,
  concurrency: number,
): Promise<WellKnownFetched[]> {
  const out: WellKnownFetched[] = new Array(origins.length);
  let next = 0;
  const worker = async () => {
    while (next < origins.length) {
      const i = next++;
      out[i] = await fetchWellKnown(origins[i]!, edge, userAgent);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, origins.length)) }, worker));
  return out;
}

export async function ingestWellKnown(ctx: Context, store: Store, opts: WellKnownIngestOptions): Promise<WellKnownIngestResult> {
  const origins = opts.origins
    ? parseOrigins(opts.origins.join('\n'), 'origins')
    : parseOrigins(readFileSync(opts.originsFile!, 'utf8'), opts.originsFile!);
  const p = ctx.config.probe;
  const edge: EdgeOptions = {
    timeoutMs: p.timeoutMs,
    maxBodyBytes: WELL_KNOWN_MAX_BYTES,
    maxHeaderBytes: p.maxHeaderBytes,
    allowPrivate: p.allowPrivate,
    resolveMap: p.resolve,
    ...opts.edge,
  };
  return withIngestRun(store, 'ingest_well_known', ctx.clock, { origins: origins.length, source: opts.originsFile ?? null }, async () => {
    const fetched = await fetchAll(origins, edge, p.userAgent, opts.concurrency ?? 4);
    const counts: WellKnownIngestCounts = {
      origins: origins.length,
      read: 0,
      outcomes: {},
      declared: 0,
      skipped: {},
      noted: {},
      ...noMerges(),
    };
    const perOrigin: WellKnownOriginResult[] = [];
    const batches: { registry: string; records: DiscoveredRecord[] }[] = [];
    for (const [i, origin] of origins.entries()) {
      const f = fetched[i]!;
      const registry = wellKnownRegistry(origin);
      if (!f.ok) {
        add(counts.outcomes, { [f.reason]: 1 });
        perOrigin.push({ origin, registry, outcome: f.reason, detail: f.detail, resources: 0 });
        continue;
      }
      const parsed = parseWellKnown(f.doc, { origin, allowPrivate: edge.allowPrivate });
      counts.read++;
      add(counts.outcomes, { [parsed.dialect]: 1 });
      add(counts.skipped, parsed.skipped);
      add(counts.noted, parsed.noted);
      counts.declared += parsed.resources.length + Object.values(parsed.skipped).reduce((a, b) => a + (b ?? 0), 0);
      batches.push({ registry, records: wellKnownRecords(parsed, origin, ctx.secret) });
      perOrigin.push({ origin, registry, outcome: parsed.dialect, detail: null, resources: parsed.resources.length });
    }

    const now = ctx.clock();
    await store.transaction(async () => {
      const claimed = new Set<string>();
      for (const b of batches) {
        const ids = b.records.map((r) => r.id);
        const owners = ids.length
          ? await store.all<{ id: string; registry: string | null }>(
              `SELECT id, registry FROM services WHERE id IN (SELECT unnest(from_json($1::JSON, '["VARCHAR"]')))`,
              [JSON.stringify(ids)],
            )
          : [];
        const elsewhere = new Set(owners.filter((o) => o.registry !== b.registry).map((o) => o.id));
        const records = b.records.filter((r) => !elsewhere.has(r.id) && !claimed.has(r.id));
        const taken = b.records.length - records.length;
        if (taken) add(counts.skipped, { listed_by_other_source: taken });
        for (const r of records) claimed.add(r.id);
        const m = await mergeDiscovered(store, records, { registry: b.registry, protocol: 'x402', now, delistMissing: true });
        for (const k of Object.keys(m) as (keyof MergeCounts)[]) counts[k] += m[k];
      }
    });
    const status = counts.read === counts.origins ? RunStatus.enum.ok : RunStatus.enum.partial;
    return { counts, origins: perOrigin, status };
  });
}
