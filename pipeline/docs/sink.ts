import { createHash } from 'node:crypto';
import type { Context } from '../core/context.ts';
import type { DocumentationSink } from '../probe/run-probe.ts';
import type { Store } from '../store/store.ts';
import { lineDiff } from './line-diff.ts';
import { normalizeContent } from './normalize.ts';
import { endpointPathsOf, reviewChange } from './review-rule.ts';
import { summarizeChange } from './summary.ts';

export type DocumentationInput = Parameters<DocumentationSink>[0];

export interface RecordResult {
  action: 'skipped_failed' | 'unchanged' | 'baseline' | 'changed';
  changeId?: string;
}

/**
 * Deterministic change id: a transition away from one stored snapshot (identified by its hash and
 * time) to new content. Recording it twice (a retry after a crash) gives the same id, so no duplicate.
 */
export const changeId = (serviceId: string, url: string, previousHash: string, previousAt: string, currentHash: string): string =>
  `chg_${createHash('sha256').update([serviceId, url, previousHash, previousAt, currentHash].join('\u0000')).digest('hex').slice(0, 20)}`;

/**
 * Record one fetched documentation page (called by the probe after the check row is durable):
 * - a page that failed (check not passed, or no complete body) → nothing (its failed check is the record);
 * - normalized content equal (by hash) to the latest snapshot of (service, url) → nothing;
 * - first snapshot of the page → a baseline snapshot, no change;
 * - otherwise → a snapshot and a `changes` row with a bounded line diff and the review verdict.
 */
export async function recordDocumentation(store: Store, input: DocumentationInput): Promise<RecordResult> {
  if (!input.passed || input.body === null) return { action: 'skipped_failed' };
  const { text, hash } = normalizeContent(input.body, input.contentType);
  const at = input.checkedAt;
  // No explicit transaction: the store is one connection shared with the probe's check writer,
  // whose batches are transactions of their own. The change row goes first and has a deterministic
  // id, so a crash between the two inserts leads to the same change being recorded again (a no-op),
  // never to a lost one.
  const [latest] = await store.all<{ content_hash: string; content: string; fetched_at: string }>(
    `SELECT content_hash, content, fetched_at::VARCHAR AS fetched_at FROM doc_snapshots
     WHERE service_id = $1 AND url = $2 ORDER BY fetched_at DESC LIMIT 1`,
    [input.serviceId, input.url],
  );
  if (latest?.content_hash === hash) return { action: 'unchanged' };
  let id: string | undefined;
  if (latest) {
    const ops = await store.all<{ url: string }>(`SELECT url FROM operations WHERE service_id = $1 AND kind <> 'documentation'`, [
      input.serviceId,
    ]);
    const diff = lineDiff(latest.content, text);
    const review = reviewChange(diff.removed, diff.added, endpointPathsOf(ops.map((o) => o.url)));
    id = changeId(input.serviceId, input.url, latest.content_hash, latest.fetched_at, hash);
    await store.run(
      `INSERT INTO changes (id, service_id, url, detected_at, previous_hash, current_hash, summary, added_lines, removed_lines, diff, needs_review, review_terms)
       VALUES ($1, $2, $3, $4::TIMESTAMP, $5, $6, $7, $8, $9, $10::JSON, $11, $12::JSON::VARCHAR[])
       ON CONFLICT DO NOTHING`,
      [
        id,
        input.serviceId,
        input.url,
        at.toISOString(),
        latest.content_hash,
        hash,
        summarizeChange(diff.added.length, diff.removed.length, review),
        diff.added.length,
        diff.removed.length,
        JSON.stringify(diff.entries),
        review.needs_review,
        // A list parameter travels as JSON text, cast to VARCHAR[] in SQL.
        JSON.stringify(review.terms),
      ],
    );
  }
  await store.run(`INSERT INTO doc_snapshots (service_id, url, fetched_at, content_hash, content) VALUES ($1, $2, $3::TIMESTAMP, $4, $5)`, [
    input.serviceId,
    input.url,
    at.toISOString(),
    hash,
    text,
  ]);
  return id ? { action: 'changed', changeId: id } : { action: 'baseline' };
}

/**
 * The DocumentationSink for `runProbe` (CONTRACTS.md "Probe engine"). Calls are serialized: the probe
 * may invoke the sink for several pages at once, and the store is one connection.
 */
export function createDocumentationSink(ctx: Context, store: Store): DocumentationSink {
  let chain: Promise<unknown> = Promise.resolve();
  return (input) => {
    const next = chain.then(async () => {
      const r = await recordDocumentation(store, input);
      if (r.action === 'changed') ctx.log.info('documentation changed', { service: input.serviceId, url: input.url, change: r.changeId });
    });
    chain = next.catch(() => undefined);
    return next;
  };
}
