import type { Store } from '../../../pipeline/store/store.ts';

/**
 * Raw rows for publish tests and the publish timing script, generated in SQL (fast at 100k
 * services). Services cycle through three kinds by index:
 *   i % 3 = 0 → reviewed x402 api_endpoint `svc_r<i>` (primary hourly + docs daily, expected 402)
 *   i % 3 = 1 → discovered x402 `cand_x<i>` (daily, payment terms observed, registry usage)
 *   i % 3 = 2 → discovered MCP `cand_m<i>` (daily)
 * Checks: `days` days of history at each operation's interval, every 7th failing.
 */
export async function seedRaw(store: Store, now: Date, n: number, days = 10): Promise<void> {
  const start = new Date(now.getTime() - days * 86_400_000);
  // Bound parameters, like production SQL: $1 now, $2 the start of the history (ISO text).
  const times = [now.toISOString(), start.toISOString()];
  await store.run(
    `
    INSERT INTO services (id, tier, type, name, name_source, host, url, method, templated_url, operator, category, tags, description,
      listed, active, registry, protocol, x402_version, first_seen_at, last_seen_at, approved_at, monitoring_since,
      registry_calls_30d, registry_payers_30d, registry_price_usd, registry_networks, operator_price_usd, operator_networks,
      mcp_status, remote_type, claims, created_at, updated_at)
    SELECT
      CASE i % 3 WHEN 0 THEN 'svc_r' WHEN 1 THEN 'cand_x' ELSE 'cand_m' END || lpad(i::VARCHAR, 7, '0'),
      CASE WHEN i % 3 = 0 THEN 'reviewed' ELSE 'discovered' END,
      CASE WHEN i % 3 = 2 THEN 'mcp_server' ELSE 'api_endpoint' END,
      'Service ' || i, CASE WHEN i % 3 = 0 THEN 'atlas' ELSE 'registry' END,
      'host' || (i % 500) || '.example', 'https://host' || (i % 500) || '.example/api/' || i, 'GET', i % 11 = 0,
      CASE WHEN i % 3 = 0 THEN 'Operator ' || (i % 50) END, CASE WHEN i % 3 = 0 THEN 'data' END,
      ['tag-' || (i % 7)], 'Description of service ' || i,
      i % 13 <> 0, true, CASE WHEN i % 3 = 0 THEN NULL ELSE 'reg' END,
      CASE WHEN i % 3 = 2 THEN 'mcp' ELSE 'x402' END, CASE WHEN i % 3 = 1 THEN 2 END,
      CASE WHEN i % 3 <> 0 THEN $2::TIMESTAMP END, CASE WHEN i % 3 <> 0 THEN $1::TIMESTAMP END,
      CASE WHEN i % 3 = 0 THEN $2::TIMESTAMP END, $2::TIMESTAMP,
      CASE WHEN i % 3 = 1 THEN i % 1000 END, CASE WHEN i % 3 = 1 THEN i % 150 END,
      CASE WHEN i % 3 = 1 THEN 0.001 * (i % 10) END, CASE WHEN i % 3 = 1 THEN ['eip155:8453'] ELSE [] END,
      CASE WHEN i % 3 = 0 THEN 0.01 END, CASE WHEN i % 3 = 0 THEN ['eip155:8453'] ELSE [] END,
      CASE WHEN i % 3 = 2 THEN 'active' END, CASE WHEN i % 3 = 2 THEN 'streamable-http' END,
      CASE WHEN i % 3 = 0 THEN '{"price_usd":{"value":0.01,"source_url":"https://docs.example/pricing","checked_at":"2026-11-20","note":"per call"},"networks":{"value":["eip155:8453"],"source_url":"https://docs.example/pay","checked_at":"2026-11-20"}}' END::JSON,
      $2::TIMESTAMP, $2::TIMESTAMP
    FROM range($3::BIGINT) r(i)`,
    [...times, n],
  );
  await store.run(`
    INSERT INTO operations (service_id, id, kind, is_primary, url, method, expected_statuses, pass_rule, interval_hours)
    SELECT id, 'primary', 'call', true, url, method, CASE WHEN tier = 'reviewed' THEN [402] END,
      CASE WHEN tier = 'reviewed' THEN 'reviewed/1' WHEN protocol = 'mcp' THEN 'mcp-reach/3' ELSE 'x402-mainnet/1' END,
      CASE WHEN tier = 'reviewed' THEN 1 ELSE 24 END
    FROM services;
    INSERT INTO operations (service_id, id, kind, is_primary, url, method, expected_statuses, pass_rule, interval_hours)
    SELECT id, 'docs', 'documentation', false, 'https://docs.example/' || id, 'GET', [200], 'reviewed/1', 24 FROM services WHERE tier = 'reviewed'`);
  await store.run(
    `INSERT INTO interval_changes SELECT service_id, id, $1::TIMESTAMP, NULL, interval_hours, 'schedule/1',
      CASE WHEN pass_rule = 'reviewed/1' THEN 'reviewed_fixed' ELSE 'new_until_third_probe' END FROM operations`,
    [start.toISOString()],
  );
  await store.run(
    `INSERT INTO checks (service_id, operation, slot, checked_at, status, passed, reason, rule, latency_ms)
    SELECT o.service_id, o.id, g.slot, g.slot + INTERVAL 5 SECOND,
      CASE WHEN (hash(o.service_id) + epoch(g.slot)::BIGINT) % 7 = 0 THEN 500 WHEN o.pass_rule = 'reviewed/1' AND o.kind = 'call' THEN 402
           WHEN o.pass_rule = 'x402-mainnet/1' THEN 402 WHEN o.pass_rule = 'mcp-reach/3' THEN 406 ELSE 200 END,
      (hash(o.service_id) + epoch(g.slot)::BIGINT) % 7 <> 0,
      CASE WHEN (hash(o.service_id) + epoch(g.slot)::BIGINT) % 7 = 0 THEN 'status_not_expected' ELSE 'ok' END,
      o.pass_rule, 100 + (hash(o.service_id) % 400)
    FROM operations o,
      LATERAL (SELECT unnest(generate_series(time_bucket(INTERVAL (o.interval_hours) HOUR, $2::TIMESTAMP) + INTERVAL (o.interval_hours) HOUR,
        $1::TIMESTAMP - INTERVAL 1 MINUTE, INTERVAL (o.interval_hours) HOUR)) AS slot) g`,
    times,
  );
  await store.run(
    `INSERT INTO payment_terms (service_id, operation, slot, observed_at, x402_version, offers, terms_hash, networks, schemes, assets,
      pay_to_hashes, amounts, timeouts, min_price_usd, max_price_usd, currencies)
    SELECT c.service_id, c.operation, c.slot, c.checked_at, 2,
      json_array(json_object('scheme', 'exact', 'network', 'eip155:8453', 'asset', '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
        'amount', CASE WHEN c.checked_at > $1::TIMESTAMP - INTERVAL 3 DAY THEN '2000' ELSE '1000' END, 'pay_to_hash', 'h1', 'max_timeout_seconds', 60)),
      CASE WHEN c.checked_at > $1::TIMESTAMP - INTERVAL 3 DAY THEN 'B' ELSE 'A' END,
      ['eip155:8453'], ['exact'], ['eip155:8453|0x833589fcd6edb6e08f4c7c32d4f71b54bda02913'], ['h1'],
      [CASE WHEN c.checked_at > $1::TIMESTAMP - INTERVAL 3 DAY THEN 'exact|eip155:8453|0x833589fcd6edb6e08f4c7c32d4f71b54bda02913=2000'
            ELSE 'exact|eip155:8453|0x833589fcd6edb6e08f4c7c32d4f71b54bda02913=1000' END],
      [60], CASE WHEN c.checked_at > $1::TIMESTAMP - INTERVAL 3 DAY THEN 0.002 ELSE 0.001 END,
      NULL, ['eip155:8453|0x833589fcd6edb6e08f4c7c32d4f71b54bda02913=USD']
    FROM checks c JOIN services s ON s.id = c.service_id
    WHERE s.tier = 'discovered' AND s.protocol = 'x402' AND c.passed`,
    [now.toISOString()],
  );
  // What catalog `reg` declares about the x402 services' terms (declared_terms, migration 060): the
  // price observed before the last 3 days, so the change 3 days ago is a declared-against-observed
  // difference (rule declared-terms/1).
  await store.run(
    `INSERT INTO declared_terms (service_id, source_kind, source, since, read_at, price_usd, networks, assets, schemes, values_hash)
    SELECT id, 'catalog', 'reg', $2::TIMESTAMP, $1::TIMESTAMP, 0.001, ['eip155:8453'], ['eip155:8453|0x833589fcd6edb6e08f4c7c32d4f71b54bda02913'],
      ['exact'], 'seed'
    FROM services WHERE tier = 'discovered' AND protocol = 'x402'`,
    times,
  );
  // Hourly probe runs over the last day, ids in the one run-id format (pipeline/store/runs.ts).
  await store.run(
    `INSERT INTO runs (id, kind, scheduled_at, started_at, finished_at, status)
    SELECT 'probe_' || strftime(started, '%Y%m%dT%H%M%SZ') || '_' || lpad(h::VARCHAR, 8, '0'), 'probe', started - INTERVAL 1 MINUTE,
      started, started + INTERVAL 1 MINUTE, 'ok'
    FROM (SELECT h, $1::TIMESTAMP - INTERVAL (h) HOUR + INTERVAL 1 MINUTE AS started FROM range(1, 24) r(h))`,
    [now.toISOString()],
  );
}

/** A documentation change and a frozen weekly report with one correction. */
export async function seedChangesAndReports(store: Store, now: Date): Promise<void> {
  const svc =
    (await store.all<{ id: string }>(`SELECT id FROM services WHERE tier = 'reviewed' ORDER BY id LIMIT 1`))[0]?.id ?? 'svc_r0000000';
  await store.run(
    `INSERT INTO changes VALUES ('chg_1', $1, 'https://docs.example/x', $2::TIMESTAMP, 'a', 'b',
      'price line changed', 1, 1, '[{"op":"-","line":"$0.01"},{"op":"+","line":"$0.02"}]', true, ['price'])`,
    [svc, new Date(now.getTime() - 2 * 86_400_000).toISOString()],
  );
  await store.run(
    `INSERT INTO changes VALUES ('chg_old', $1, 'https://docs.example/x', $2::TIMESTAMP, NULL, 'a',
      'first snapshot', 3, 0, '[]', false, [])`,
    [svc, new Date(now.getTime() - 120 * 86_400_000).toISOString()],
  );
  await store.run(`INSERT INTO reports VALUES (DATE '2026-11-16', $1::TIMESTAMP, '{"week":"2026-11-16","figures":{"checks":10}}')`, [
    '2026-11-23T00:05:00Z',
  ]);
  await store.run(
    `INSERT INTO report_corrections VALUES (DATE '2026-11-16', 1, $1::TIMESTAMP, 'checks were 11', '{"figures.checks":11}')`,
    ['2026-11-24T10:00:00Z'],
  );
}
