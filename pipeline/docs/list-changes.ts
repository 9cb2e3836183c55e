import { API_STATUS } from '../../site/contract/common.ts';
import { DAY_MS } from '../core/clock.ts';
import { dbTimeToIso, type Store } from '../store/store.ts';
import type { ChangeList, ChangeRecord } from '../../site/contract/changes.ts';
import { declaredDifferenceChanges } from '../compute/declared.ts';
import { changeEvents } from './change-events.ts';

export interface ListChangesOptions {
  /** Look-back window in days (1–90; the caller validates), default 7. */
  days?: number;
  service_id?: string;
  needs_review?: boolean;
  now: Date;
}

/**
 * Documentation changes detected in [now − days, now], newest first (contract `ChangeList`).
 * Publish writes the 90-day list; serve filters it the same way.
 */
export async function listChanges(store: Store, opts: ListChangesOptions): Promise<ChangeList> {
  const days = opts.days ?? 7;
  const windowStart = new Date(opts.now.getTime() - days * DAY_MS);
  const rows = await store.all<{
    id: string;
    service_id: string;
    service_name: string | null;
    url: string;
    detected_at: string;
    summary: string;
    added_lines: number;
    removed_lines: number;
    needs_review: boolean;
    review_terms: string[];
    diff: string;
  }>(
    `SELECT c.id, c.service_id, s.name AS service_name, c.url, c.detected_at, c.summary, c.added_lines, c.removed_lines,
            c.needs_review, c.review_terms, c.diff
     FROM changes c LEFT JOIN services s ON s.id = c.service_id
     WHERE c.detected_at >= $1::TIMESTAMP AND c.detected_at <= $2::TIMESTAMP
       AND ($3::VARCHAR IS NULL OR c.service_id = $3::VARCHAR)
       AND ($4::BOOLEAN IS NULL OR c.needs_review = $4::BOOLEAN)
     ORDER BY c.detected_at DESC, c.id`,
    [windowStart.toISOString(), opts.now.toISOString(), opts.service_id ?? null, opts.needs_review ?? null],
  );
  const items: ChangeRecord[] = rows.map((r) => ({
    kind: 'documentation',
    catalog: null,
    id: r.id,
    service_id: r.service_id,
    service_name: r.service_name,
    url: r.url,
    detected_at: dbTimeToIso(r.detected_at)!,
    summary: r.summary,
    added_lines: Number(r.added_lines),
    removed_lines: Number(r.removed_lines),
    needs_review: r.needs_review,
    review_terms: r.review_terms ?? [],
    diff: JSON.parse(r.diff) as ChangeRecord['diff'],
  }));
  const query: ChangeList['query'] = { days };
  if (opts.service_id !== undefined) query.service_id = opts.service_id;
  if (opts.needs_review !== undefined) query.needs_review = opts.needs_review;
  return {
    api_status: API_STATUS,
    generated_at: opts.now.toISOString(),
    query,
    window_start: windowStart.toISOString(),
    total: items.length,
    items,
    // Not documentation changes, so needs_review leaves them out (contract ChangeList).
    declared_differences:
      opts.needs_review === undefined ? await declaredDifferenceChanges(store, windowStart, opts.now, opts.service_id ?? null) : [],
    events: await changeEvents(store, windowStart, opts.now, opts.service_id),
  };
}
