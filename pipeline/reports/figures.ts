import type { Store } from '../store/store.ts';
import { checksFigures } from './checks-figures.ts';
import { CHECK_INTERVAL_NAMES, FEEDBACK_KINDS, OUTCOMES, SERVICE_TIERS, SERVICE_TYPES } from '../../site/contract/common.ts';
import { ReportBody } from '../../site/contract/reports.ts';
import { MODERATION_STATES } from '../../site/contract/moderation.ts';
import { RECEIPT_STATES } from '../../site/contract/outcome-receipt.ts';
import { REPORT_NOTES } from './notes.ts';
import { int, PARAMS_CTE } from './sql.ts';
import { signedOffersFigures } from './signed-offers-figures.ts';
import { termsFigures } from './terms-figures.ts';
import { declaredFigures } from './declared-figures.ts';
import { weekEnd, weekId } from '../core/week.ts';

export const OUTCOME_REPORTS_NOTE =
  'Unverified reports sent by agents, moderated before any use; counted as received, never turned into rates or scores.';

const zeros = <K extends string>(keys: readonly K[]): Record<K, number> => Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;

/** Fill a zero-initialised record from (key, n) rows; unknown keys are ignored (the totals still count them). */
function tally<K extends string>(keys: readonly K[], rows: Array<{ k: unknown; n: unknown }>): Record<K, number> {
  const out = zeros(keys);
  for (const r of rows) if ((keys as readonly unknown[]).includes(r.k)) out[r.k as K] = int(r.n);
  return out;
}

/** The week's reports per receipt state: received, by outcome, by moderation state; every key present. */
function byReceipt(rows: Array<{ r: string; o: string; m: string; n: unknown }>): ReportBody['outcome_reports']['by_receipt'] {
  const of = (s: string) => rows.filter((x) => x.r === s);
  return Object.fromEntries(
    RECEIPT_STATES.map((s) => [
      s,
      {
        received: of(s).reduce((a, x) => a + int(x.n), 0),
        by_outcome: tally(OUTCOMES, sumBy(of(s), 'o')),
        by_moderation: tally(MODERATION_STATES, sumBy(of(s), 'm')),
      },
    ]),
  ) as ReportBody['outcome_reports']['by_receipt'];
}
function sumBy(rows: Array<{ o: string; m: string; n: unknown }>, key: 'o' | 'm'): Array<{ k: string; n: number }> {
  const m = new Map<string, number>();
  for (const r of rows) m.set(r[key], (m.get(r[key]) ?? 0) + int(r.n));
  return [...m].map(([k, n]) => ({ k, n }));
}

/**
 * The figures of one week, pure SQL over raw tables, counting events in [weekStart, until) (macro
 * atlas_in_window, pipeline/store/rules.sql; interval names by atlas_interval_name there).
 * `until` is the week end for a frozen report and "now" for `current` (never past the week end).
 * Deterministic: the same data and times give the same body, key order included.
 */
export async function computeWeekFigures(store: Store, weekStart: Date, until: Date): Promise<ReportBody> {
  const end = weekEnd(weekStart);
  const cut = new Date(Math.max(weekStart.getTime(), Math.min(until.getTime(), end.getTime())));
  const ws = weekStart.toISOString();
  const u = cut.toISOString();
  const q = <T = Record<string, unknown>>(sql: string) => store.all<T>(`WITH ${PARAMS_CTE} ${sql}`, [ws, u]);

  const tierTypeRows = await q<{ tier: string; type: string; n: unknown }>(
    `SELECT tier, type, count(*)::INTEGER AS n FROM services, p WHERE created_at < p.until GROUP BY 1, 2`,
  );
  const rollup = (key: 'tier' | 'type') => {
    const m = new Map<string, number>();
    for (const r of tierTypeRows) m.set(r[key], (m.get(r[key]) ?? 0) + int(r.n));
    return [...m].map(([k, n]) => ({ k, n }));
  };
  const tierRows = rollup('tier');
  const typeRows = rollup('type');
  const byTierType = Object.fromEntries(
    SERVICE_TIERS.map((t) => [
      t,
      tally(
        SERVICE_TYPES,
        tierTypeRows.filter((r) => r.tier === t).map((r) => ({ k: r.type, n: r.n })),
      ),
    ]),
  ) as ReportBody['services']['by_tier_type'];
  const [dir] = await q<{ size: unknown; evaluated: unknown }>(`
    SELECT count(*) FILTER (WHERE in_directory)::INTEGER AS size, count(*)::INTEGER AS evaluated
    FROM atlas_directory_as_of($2::TIMESTAMP)`);
  const addedRows = await q<{ k: string; n: unknown }>(
    `SELECT tier AS k, count(*)::INTEGER AS n FROM services, p WHERE atlas_in_window(created_at, p.ws, p.until) GROUP BY 1`,
  );
  const [events] = await q<{ delisted: unknown; relisted: unknown }>(`
    SELECT count(*) FILTER (WHERE NOT listed)::INTEGER AS delisted,
           count(*) FILTER (WHERE listed AND coalesce(reason, '') <> 'first_seen')::INTEGER AS relisted
    FROM listing_events, p WHERE atlas_in_window(event_at, p.ws, p.until)`);
  // Every start and end of a catalog's listed interval (macro atlas_catalog_events, rules.sql).
  const [cat] = await q<{ listed: unknown; relisted: unknown; unlisted: unknown; services: unknown }>(`
    SELECT count(*) FILTER (WHERE e.listed)::INTEGER AS listed,
           count(*) FILTER (WHERE e.listed AND e.reason = 'relisted')::INTEGER AS relisted,
           count(*) FILTER (WHERE NOT e.listed)::INTEGER AS unlisted,
           count(DISTINCT e.service_id)::INTEGER AS services
    FROM atlas_catalog_events($2::TIMESTAMP) e, p WHERE atlas_in_window(e.event_at, p.ws, p.until)`);
  const intervalRows = await q<{ k: string; n: unknown }>(`
    SELECT coalesce(atlas_interval_name(to_hours), 'other') AS k,
           count(*)::INTEGER AS n
    FROM interval_changes, p WHERE from_hours IS NOT NULL AND atlas_in_window(changed_at, p.ws, p.until) GROUP BY 1`);
  const [docs] = await q<{ changes: unknown; needs_review: unknown; services: unknown }>(`
    SELECT count(*)::INTEGER AS changes, count(*) FILTER (WHERE needs_review)::INTEGER AS needs_review,
           count(DISTINCT service_id)::INTEGER AS services
    FROM changes, p WHERE atlas_in_window(detected_at, p.ws, p.until)`);
  const outcomeRows = await q<{ k: string; n: unknown }>(
    `SELECT outcome AS k, count(*)::INTEGER AS n FROM outcomes, p WHERE atlas_in_window(received_at, p.ws, p.until) GROUP BY 1`,
  );
  // Moderation state as of figures_until (macro atlas_outcome_state_as_of: decisions made up to then).
  const moderationRows = await q<{ k: string; n: unknown }>(
    `SELECT o.state AS k, count(*)::INTEGER AS n FROM atlas_outcome_state_as_of($2::TIMESTAMP) o, p
     WHERE atlas_in_window(o.received_at, p.ws, p.until) GROUP BY 1 ORDER BY 1`,
  );
  // Receipt state and moderation state as of figures_until, kept apart per receipt state.
  const receiptRows = await q<{ r: string; o: string; m: string; n: unknown }>(
    `SELECT o.receipt_state AS r, o.outcome AS o, o.state AS m, count(*)::INTEGER AS n FROM atlas_outcome_state_as_of($2::TIMESTAMP) o, p
     WHERE atlas_in_window(o.received_at, p.ws, p.until) GROUP BY ALL ORDER BY ALL`,
  );
  const feedbackRows = await q<{ k: string; n: unknown }>(
    `SELECT kind AS k, count(*)::INTEGER AS n FROM feedback, p WHERE atlas_in_window(received_at, p.ws, p.until) GROUP BY 1`,
  );
  const sum = (rows: Array<{ n: unknown }>) => rows.reduce((a, r) => a + int(r.n), 0);

  const body: ReportBody = {
    week: weekId(weekStart),
    week_start: ws,
    week_end: end.toISOString(),
    figures_until: u,
    provisional: cut.getTime() < end.getTime(),
    services: {
      tracked: sum(tierRows),
      by_tier: tally(SERVICE_TIERS, tierRows),
      by_type: tally(SERVICE_TYPES, typeRows),
      by_tier_type: byTierType,
    },
    directory: { size: int(dir?.size), evaluated: int(dir?.evaluated) },
    checks: await checksFigures(store, ws, u),
    listing: {
      added: sum(addedRows),
      added_by_tier: tally(SERVICE_TIERS, addedRows),
      delisted: int(events?.delisted),
      relisted: int(events?.relisted),
    },
    catalogs: { listed: int(cat?.listed), relisted: int(cat?.relisted), unlisted: int(cat?.unlisted), services: int(cat?.services) },
    interval_changes: { total: sum(intervalRows), by_new_interval: tally(CHECK_INTERVAL_NAMES, intervalRows) },
    payment_terms: await termsFigures(store, ws, u),
    declared_terms: await declaredFigures(store, ws, u),
    signed_offers: await signedOffersFigures(store, ws, u),
    documentation: { changes: int(docs?.changes), needs_review: int(docs?.needs_review), services: int(docs?.services) },
    outcome_reports: {
      note: OUTCOME_REPORTS_NOTE,
      received: sum(outcomeRows),
      by_outcome: tally(OUTCOMES, outcomeRows),
      by_moderation: Object.fromEntries(moderationRows.map((r) => [String(r.k), int(r.n)])),
      by_receipt: byReceipt(receiptRows),
    },
    feedback: { received: sum(feedbackRows), by_kind: tally(FEEDBACK_KINDS, feedbackRows) },
    notes: REPORT_NOTES,
  };
  return ReportBody.parse(body);
}
