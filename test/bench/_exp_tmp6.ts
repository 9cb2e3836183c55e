import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { migrate, openStore } from '../../pipeline/store/index.ts';
const N = 20000, B = Number(process.argv[2] ?? 500);
const row = (i: number) => ({ service_id: `cand_${i}`, operation: 'primary', slot: '2026-11-25T00:00:00.000Z', checked_at: '2026-11-25T00:10:00.000Z', status: 402, passed: true, reason: 'ok', rule: 'x402-mainnet/1', latency_ms: 12.5, ttfb_ms: 10.1, run_id: 'r1', url: `https://h${i}.example/x`, method: 'GET', bytes: 2, detail: null });
const COLS = `{service_id: 'VARCHAR', operation: 'VARCHAR', slot: 'VARCHAR', checked_at: 'VARCHAR', status: 'INTEGER', passed: 'BOOLEAN', reason: 'VARCHAR', rule: 'VARCHAR', latency_ms: 'DOUBLE', ttfb_ms: 'DOUBLE', run_id: 'VARCHAR', url: 'VARCHAR', method: 'VARCHAR', bytes: 'INTEGER', detail: 'VARCHAR'}`;
const INS = (src: string) => `INSERT INTO checks (service_id, operation, slot, checked_at, status, passed, reason, rule, latency_ms, ttfb_ms, run_id, url, method, bytes, detail)
  SELECT s.service_id, s.operation, s.slot::TIMESTAMP, s.checked_at::TIMESTAMP, s.status, s.passed, s.reason, s.rule, s.latency_ms, s.ttfb_ms, s.run_id, s.url, s.method, s.bytes, s.detail FROM ${src} s
  WHERE NOT EXISTS (SELECT 1 FROM checks c WHERE c.service_id = s.service_id AND c.operation = s.operation AND c.slot = s.slot::TIMESTAMP)`;
for (const method of ['appender', 'ndjson', 'jsonparam', 'appender', 'ndjson', 'jsonparam']) {
  const dir = mkdtempSync(join(tmpdir(), 'w-'));
  const store = await openStore(join(dir, 'a.duckdb'));
  await migrate(store, new Date());
  await store.run(`CREATE TEMP TABLE stage (service_id VARCHAR, operation VARCHAR, slot VARCHAR, checked_at VARCHAR, status INTEGER, passed BOOLEAN, reason VARCHAR, rule VARCHAR, latency_ms DOUBLE, ttfb_ms DOUBLE, run_id VARCHAR, url VARCHAR, method VARCHAR, bytes INTEGER, detail VARCHAR)`);
  const app = await store.conn.createAppender('stage', 'main', 'temp');
  let mainMs = 0;
  const t0 = performance.now();
  for (let b = 0; b < N / B; b++) {
    const rows = Array.from({ length: B }, (_, k) => row(b * B + k));
    const m0 = performance.now();
    if (method === 'appender') {
      for (const r of rows) { for (const v of Object.values(r)) { if (v === null) app.appendNull(); else if (typeof v === 'boolean') app.appendBoolean(v); else if (typeof v === 'number') Number.isInteger(v) ? app.appendInteger(v) : app.appendDouble(v); else app.appendVarchar(v); } app.endRow(); }
      app.flushSync();
      mainMs += performance.now() - m0;
      await store.transaction(async () => { await store.run(INS('stage')); await store.run('DELETE FROM stage'); });
    } else if (method === 'ndjson') {
      const f = join(dir, 'spool.ndjson');
      writeFileSync(f, rows.map((r) => JSON.stringify(r)).join('\n'));
      mainMs += performance.now() - m0;
      await store.run(INS(`read_json('${f}', format = 'newline_delimited', columns = ${COLS})`));
    } else {
      const j = JSON.stringify(rows);
      mainMs += performance.now() - m0;
      await store.run(INS(`(SELECT unnest(from_json($1::JSON, '[${COLS.replace(/'/g, '"').replace(/(\w+):/g, '"$1":')}]'), recursive := true))`), [j]);
    }
  }
  const ms = performance.now() - t0;
  const n = (await store.all<{ n: number }>('SELECT count(*)::INT AS n FROM checks'))[0]!.n;
  console.log(`${method.padEnd(9)} batch ${B}: ${N} rows in ${ms.toFixed(0)} ms (${((N * 1000) / ms).toFixed(0)} rows/s), main-thread ${mainMs.toFixed(0)} ms, stored ${n}`);
  app.closeSync();
  store.close();
}
