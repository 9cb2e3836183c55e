import { AtlasError } from '../core/errors.ts';
import type { Store } from '../store/store.ts';
import {
  MODERATION_REASONS,
  MODERATION_STATES,
  type ModerationReasonName,
  type ModerationStateName,
  OPERATOR_RULE,
  PIPELINE_DECIDER,
} from '../../site/contract/moderation.ts';
import { recordDecisions } from './run.ts';

/** Which reports an operator's batch applies to, besides explicit ids (all given selectors must match). */
export interface ReportFilter {
  service?: string;
  key?: string;
  state?: ModerationStateName;
}

export interface OperatorDecision {
  decision: 'accept' | 'reject';
  /** Explicit report ids (from the command line and --file). */
  ids: readonly string[];
  filter?: ReportFilter;
  /** A rejection's reason (default operator_review); not allowed with accept. */
  reason?: string;
  /** The operator's name, recorded as decided_by. */
  by: string;
  note?: string;
  now: Date;
}

export interface OperatorResult {
  decided: Array<{ report_id: string; state: 'accepted' | 'rejected'; reason: ModerationReasonName | null }>;
}

const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9 ._@-]{0,79}$/;

/** Check the operator's input before anything is read or written (AtlasError bad_usage). */
export function checkOperatorInput(d: OperatorDecision): { state: 'accepted' | 'rejected'; reason: ModerationReasonName | null } {
  if (!NAME_RE.test(d.by) || d.by === PIPELINE_DECIDER)
    throw new AtlasError(
      'bad_usage',
      `--by must be an operator name (letters, digits, space . _ @ -; not "${PIPELINE_DECIDER}"), got ${JSON.stringify(d.by)}`,
    );
  if (d.note !== undefined && d.note.length > 500) throw new AtlasError('bad_usage', '--note must be at most 500 characters');
  if (d.filter?.state !== undefined && !(MODERATION_STATES as readonly string[]).includes(d.filter.state))
    throw new AtlasError('bad_usage', `--state must be one of ${MODERATION_STATES.join(', ')}`);
  const hasFilter = d.filter && (d.filter.service !== undefined || d.filter.key !== undefined || d.filter.state !== undefined);
  if (!d.ids.length && !hasFilter)
    throw new AtlasError('bad_usage', 'name at least one report id, a --file, or a filter (--service, --key, --state)');
  if (d.decision === 'accept') {
    if (d.reason !== undefined) throw new AtlasError('bad_usage', '--reason applies to reject only');
    return { state: 'accepted', reason: null };
  }
  const reason = d.reason ?? 'operator_review';
  if (!(MODERATION_REASONS as readonly string[]).includes(reason))
    throw new AtlasError('bad_usage', `--reason must be one of ${MODERATION_REASONS.join(', ')} (got ${JSON.stringify(reason)})`);
  return { state: 'rejected', reason: reason as ModerationReasonName };
}

/**
 * `atlas moderate accept|reject`: record one operator decision for each named report (and each
 * report the filter selects, by its current state at `now`). All or nothing: an unknown report id
 * fails the whole batch (bad_usage) before anything is written. An operator decision takes
 * precedence over the rules' (macro atlas_outcome_state_as_of), which never decide the report again.
 */
export async function decideByOperator(store: Store, d: OperatorDecision): Promise<OperatorResult> {
  const { state, reason } = checkOperatorInput(d);
  return store.transaction(async () => {
    const ids = [...new Set(d.ids)];
    if (ids.length) {
      const known = new Set(
        (
          await store.all<{ id: string }>(`SELECT id FROM outcomes WHERE id IN (SELECT unnest(from_json($1::JSON, '["VARCHAR"]')))`, [
            JSON.stringify(ids),
          ])
        ).map((r) => r.id),
      );
      const unknown = ids.filter((id) => !known.has(id));
      if (unknown.length)
        throw new AtlasError(
          'bad_usage',
          `no outcome report ${unknown.slice(0, 5).join(', ')}${unknown.length > 5 ? ` (and ${unknown.length - 5} more)` : ''}`,
        );
    }
    const f = d.filter ?? {};
    if (f.service !== undefined || f.key !== undefined || f.state !== undefined) {
      const rows = await store.all<{ report_id: string }>(
        `SELECT s.report_id FROM atlas_outcome_state_as_of($1::TIMESTAMP) s JOIN outcomes o ON o.id = s.report_id
         WHERE ($2::VARCHAR IS NULL OR s.service_id = $2) AND ($3::VARCHAR IS NULL OR o.key_id = $3) AND ($4::VARCHAR IS NULL OR s.state = $4)
         ORDER BY s.received_at, s.report_id`,
        [d.now.toISOString(), f.service ?? null, f.key ?? null, f.state ?? null],
      );
      for (const r of rows) if (!ids.includes(r.report_id)) ids.push(r.report_id);
    }
    const decided = ids.map((report_id) => ({ report_id, state, reason }));
    await recordDecisions(
      store,
      decided.map((x) => ({ ...x, note: d.note ?? null })),
      { rule: OPERATOR_RULE, decider: d.by, at: d.now },
    );
    return { decided };
  });
}
