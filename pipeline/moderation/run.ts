import type { DuckDBValue } from '@duckdb/node-api';
import type { Context } from '../core/context.ts';
import { DAY_MS } from '../core/clock.ts';
import { verifyReferral } from '../core/referral.ts';
import { dbTimeToIso, type Store } from '../store/store.ts';
import { withRun } from '../store/runs.ts';
import { MODERATION_LIMITS, MODERATION_RULE, PIPELINE_DECIDER } from '../../site/contract/moderation.ts';
import { moderate, type ReportFacts, type RuleDecision } from './rules.ts';

export interface ModerationRunSummary {
  /** Reports that had no decision and were received at or before the run's instant. */
  pending: number;
  accepted: number;
  rejected: number;
  /** Rejections per reason. */
  by_reason: Record<string, number>;
}

interface FactRow {
  id: string;
  key_id: string;
  service_id: string | null;
  referral_id: string | null;
  outcome: string;
  received_at: string;
  reported_at: string | null;
}

const FACT_COLUMNS = 'o.id, o.key_id, o.service_id, o.referral_id, o.outcome, o.received_at, o.reported_at';

const facts = (r: FactRow): ReportFacts => ({
  id: r.id,
  key_id: r.key_id,
  service_id: r.service_id,
  referral_id: r.referral_id,
  outcome: r.outcome,
  received_at: new Date(dbTimeToIso(r.received_at)!),
  reported_at: r.reported_at === null ? null : new Date(dbTimeToIso(r.reported_at)!),
});

/** Append decision rows (seq continues each report's history). Inside the caller's transaction. */
export async function recordDecisions(
  store: Store,
  rows: ReadonlyArray<{ report_id: string; state: string; reason: string | null; note?: string | null }>,
  by: { rule: string; decider: string; at: Date },
): Promise<void> {
  const BATCH = 500;
  for (let i = 0; i < rows.length; i += BATCH) {
    const part = rows.slice(i, i + BATCH);
    const params: DuckDBValue[] = [by.rule, by.decider, by.at.toISOString()];
    const values = part.map((r) => {
      params.push(r.report_id, r.state, r.reason, r.note ?? null);
      const n = params.length;
      return `($${n - 3}, $${n - 2}, $${n - 1}, $${n})`;
    });
    await store.run(
      `INSERT INTO outcome_moderation (report_id, seq, state, reason, rule_version, decided_by, decided_at, note)
       WITH v(id, state, reason, note) AS (VALUES ${values.join(', ')})
       SELECT v.id, coalesce(m.n, 0) + 1, v.state, v.reason, $1, $2, $3::TIMESTAMP, v.note
       FROM v LEFT JOIN (SELECT report_id, max(seq) AS n FROM outcome_moderation SEMI JOIN v ON v.id = report_id GROUP BY report_id) m
         ON m.report_id = v.id`,
      params,
    );
  }
}

/**
 * `atlas moderate run` and the cycle's `moderate` step: decide, by rule moderation/1
 * (./rules.ts), every outcome report received at or before now that has no decision yet, and record
 * each decision (decided_by 'pipeline', the rule version, decided_at now). A report an operator has
 * decided is never decided again by the rules. One transaction; one `runs` row (kind moderate).
 */
export async function runModeration(ctx: Context, store: Store): Promise<ModerationRunSummary> {
  const now = ctx.clock();
  return withRun(store, 'moderate', { clock: ctx.clock, startedAt: now }, async (run) => {
    const summary = await store.transaction(() => moderatePending(ctx, store, now));
    run.counts = { ...summary };
    return summary;
  });
}

async function moderatePending(ctx: Context, store: Store, now: Date): Promise<ModerationRunSummary> {
  const t = now.toISOString();
  const pending = (
    await store.all<FactRow>(
      `SELECT ${FACT_COLUMNS} FROM outcomes o
       WHERE o.received_at <= $1::TIMESTAMP AND NOT EXISTS (SELECT 1 FROM outcome_moderation m WHERE m.report_id = o.id)
       ORDER BY o.received_at, o.id`,
      [t],
    )
  ).map(facts);
  const summary: ModerationRunSummary = { pending: pending.length, accepted: 0, rejected: 0, by_reason: {} };
  if (!pending.length) return summary;

  // What checks 3 and 4 count: the same keys' reports from the start of the first pending report's
  // UTC day (less the duplicate window) to the last pending report.
  const first = pending[0]!.received_at.getTime();
  const from = new Date(Math.min(Math.floor(first / DAY_MS) * DAY_MS, first - MODERATION_LIMITS.duplicateWindowMinutes * 60_000));
  const keys = [...new Set(pending.map((r) => r.key_id))];
  const neighbours = (
    await store.all<FactRow>(
      `SELECT ${FACT_COLUMNS} FROM outcomes o
       WHERE o.key_id IN (SELECT unnest(from_json($1::JSON, '["VARCHAR"]')))
         AND o.received_at >= $2::TIMESTAMP AND o.received_at <= $3::TIMESTAMP`,
      [JSON.stringify(keys), from.toISOString(), t],
    )
  ).map(facts);
  const serviceIds = [...new Set(pending.map((r) => r.service_id).filter((s): s is string => s !== null))];
  const services = new Map(
    (
      await store.all<{ id: string; monitoring_since: string }>(
        `SELECT id, monitoring_since FROM services WHERE id IN (SELECT unnest(from_json($1::JSON, '["VARCHAR"]')))`,
        [JSON.stringify(serviceIds)],
      )
    ).map((s) => [s.id, { monitoringSince: new Date(dbTimeToIso(s.monitoring_since)!) }]),
  );

  const decisions: RuleDecision[] = moderate({
    pending,
    neighbours,
    services,
    checkReferral: (token, at) => verifyReferral(ctx.secret, token, at),
  });
  await recordDecisions(store, decisions, { rule: MODERATION_RULE, decider: PIPELINE_DECIDER, at: now });
  for (const d of decisions) {
    if (d.state === 'accepted') summary.accepted++;
    else {
      summary.rejected++;
      summary.by_reason[d.reason] = (summary.by_reason[d.reason] ?? 0) + 1;
    }
  }
  return summary;
}
