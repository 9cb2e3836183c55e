import { API_STATUS } from '../../site/contract/common.ts';
import { dbTimeToIso, type Store } from '../store/store.ts';
import { ChangeList, type ChangeRecord } from '../../site/contract/index.ts';
import { changeEvents } from '../docs/change-events.ts';
import { apiPath as api } from './paths.ts';
import { writeJson } from './write.ts';

/** Documentation changes of the last 90 days, newest first (serve filters by days / service / review). */
export const CHANGES_DAYS = 90;

export async function writeChanges(store: Store, genDir: string, now: Date): Promise<number> {
  const rows = await store.all<Record<string, unknown>>(
    `
    SELECT c.id, c.service_id, s.name AS service_name, c.url, c.detected_at, c.summary, c.added_lines, c.removed_lines,
      c.needs_review, c.review_terms, c.diff::VARCHAR AS diff
    FROM changes c LEFT JOIN services s ON s.id = c.service_id
    WHERE c.detected_at <= $1::TIMESTAMP AND c.detected_at > $1::TIMESTAMP - to_days($2::INTEGER)
    ORDER BY c.detected_at DESC, c.id`,
    [now.toISOString(), CHANGES_DAYS],
  );
  const items: ChangeRecord[] = rows.map((r) => ({
    id: String(r.id),
    service_id: String(r.service_id),
    service_name: r.service_name === null ? null : String(r.service_name),
    url: String(r.url),
    detected_at: dbTimeToIso(r.detected_at)!,
    summary: String(r.summary),
    added_lines: Number(r.added_lines),
    removed_lines: Number(r.removed_lines),
    needs_review: Boolean(r.needs_review),
    review_terms: Array.isArray(r.review_terms) ? r.review_terms.map(String) : [],
    diff: JSON.parse(String(r.diff ?? '[]')) as ChangeRecord['diff'],
  }));
  const events = await changeEvents(store, new Date(now.getTime() - CHANGES_DAYS * 86_400_000), now);
  await writeJson(
    api(genDir, 'changes.json'),
    ChangeList,
    {
      api_status: API_STATUS,
      generated_at: now.toISOString(),
      query: { days: CHANGES_DAYS },
      window_start: new Date(now.getTime() - CHANGES_DAYS * 86_400_000).toISOString(),
      total: items.length,
      items,
      events,
    },
    'changes',
  );
  return items.length;
}
