import type { Store } from '../../../pipeline/store/store.ts';

/** Direct inserts for report tests (the writers of these tables belong to other parts). */
export async function addService(
  store: Store,
  s: { id: string; tier?: 'reviewed' | 'discovered'; type?: string; createdAt: string; monitoringSince?: string },
): Promise<void> {
  await store.run(
    `INSERT INTO services (id, tier, type, name, name_source, host, url, method, monitoring_since, created_at, updated_at)
     VALUES ($1, $2, $3, $1, 'atlas', 'h.example', 'https://h.example/x', 'GET', $4::TIMESTAMP, $5::TIMESTAMP, $5::TIMESTAMP)`,
    [s.id, s.tier ?? 'reviewed', s.type ?? 'api_endpoint', s.monitoringSince ?? s.createdAt, s.createdAt],
  );
}

export async function addOperation(
  store: Store,
  o: { serviceId: string; id?: string; rule: string; hours: number; changedAt?: string },
): Promise<void> {
  await store.run(
    `INSERT INTO operations (service_id, id, kind, is_primary, url, method, pass_rule, interval_hours) VALUES ($1, $2, 'call', true, 'https://h.example/x', 'GET', $3, $4)`,
    [o.serviceId, o.id ?? 'primary', o.rule, o.hours],
  );
  if (o.changedAt) {
    await store.run(`INSERT INTO interval_changes VALUES ($1, $2, $3::TIMESTAMP, NULL, $4, 'schedule/1', 'reviewed_fixed')`, [
      o.serviceId,
      o.id ?? 'primary',
      o.changedAt,
      o.hours,
    ]);
  }
}

export async function addCheck(
  store: Store,
  c: { serviceId: string; operation?: string; slot: string; checkedAt?: string; passed: boolean; rule: string },
): Promise<void> {
  await store.run(
    `INSERT INTO checks (service_id, operation, slot, checked_at, status, passed, reason, rule) VALUES ($1, $2, $3::TIMESTAMP, $4::TIMESTAMP, 402, $5, $6, $7)`,
    [c.serviceId, c.operation ?? 'primary', c.slot, c.checkedAt ?? c.slot, c.passed, c.passed ? 'ok' : 'status_not_expected', c.rule],
  );
}

/** Hourly checks for every slot in [from, to); the n-th (1-based) fails when n % failEvery = 0. Returns how many. */
export async function addHourlyChecks(
  store: Store,
  serviceId: string,
  rule: string,
  from: string,
  to: string,
  failEvery = 0,
): Promise<number> {
  const [row] = await store.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM range($1::TIMESTAMP, $2::TIMESTAMP, INTERVAL 1 HOUR)`, [
    from,
    to,
  ]);
  await store.run(
    `INSERT INTO checks (service_id, operation, slot, checked_at, status, passed, reason, rule)
     SELECT $1, 'primary', t.range, t.range + INTERVAL 30 SECOND, 402,
            ($4 = 0 OR (row_number() OVER (ORDER BY t.range)) % $4 <> 0), 'ok', $5
     FROM range($2::TIMESTAMP, $3::TIMESTAMP, INTERVAL 1 HOUR) t`,
    [serviceId, from, to, failEvery, rule],
  );
  return Number(row?.n ?? 0);
}
