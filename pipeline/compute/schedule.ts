import { SCHEDULE_RULE } from '../../site/contract/common.ts';
import type { Store } from '../store/store.ts';
import { timeParam } from './clock.ts';

/** Published rule id of the check schedule (one constant, in the contract). */
export { SCHEDULE_RULE };

/**
 * Operations that have no interval history yet get their first row: the interval in force now, from
 * the operation's own start of monitoring (operations.monitoring_since, else the service's; ingest
 * normally writes the row when it creates the operation; this only fills gaps so missed checks can
 * always be counted against a history). $1 = SCHEDULE_RULE.
 */
const BACKFILL_FIRST_INTERVAL = `
INSERT INTO interval_changes (service_id, operation, changed_at, from_hours, to_hours, rule, reason)
SELECT o.service_id, o.id, greatest(s.monitoring_since, coalesce(o.monitoring_since, s.monitoring_since)), NULL, o.interval_hours, $1,
  CASE WHEN s.tier = 'reviewed' THEN 'reviewed_fixed' ELSE 'new_until_third_probe' END
FROM operations o JOIN services s ON s.id = o.service_id
WHERE NOT EXISTS (SELECT 1 FROM interval_changes i WHERE i.service_id = o.service_id AND i.operation = o.id)`;

/**
 * Evaluate schedule/1 (view schedule_targets, pipeline/store/rules.sql) at the compute instant; for every
 * operation whose interval changes, record the change (changed_at = now) and set the interval in force,
 * which the probe engine schedules by. Returns the number of changes.
 */
export async function applySchedule(store: Store, now: Date): Promise<number> {
  await store.run(BACKFILL_FIRST_INTERVAL, [SCHEDULE_RULE]);
  await store.run(`CREATE OR REPLACE TEMP TABLE _schedule_changes AS
    SELECT service_id, operation, current_hours, target_hours, rule, reason
    FROM schedule_targets WHERE target_hours IS DISTINCT FROM current_hours`);
  const [row] = await store.all<{ n: number }>('SELECT count(*)::INTEGER AS n FROM _schedule_changes');
  const n = Number(row?.n ?? 0);
  if (n > 0) {
    await store.run(
      `INSERT INTO interval_changes (service_id, operation, changed_at, from_hours, to_hours, rule, reason)
      SELECT service_id, operation, $1::TIMESTAMP, current_hours, target_hours, rule, reason FROM _schedule_changes`,
      [timeParam(now)],
    );
    await store.run(`UPDATE operations SET interval_hours = c.target_hours FROM _schedule_changes c
      WHERE operations.service_id = c.service_id AND operations.id = c.operation`);
  }
  await store.run('DROP TABLE IF EXISTS _schedule_changes');
  return n;
}
