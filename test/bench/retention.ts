/**
 * Benchmark of bounded history (docs/notes/history.md): N services (default 100,000) checked for D
 * simulated days (default 130: the archive cut is 100 days, so the last 30 days each archive a day),
 * with the real compute (directory transitions, check_daily) every few simulated days plus hourly on
 * the last hours of the last day (transitions per hourly evaluation, extrapolated to production's
 * hourly full evaluation), and the real archive every day. Checks are generated day by day inside DuckDB (range/generate_series, no per-row
 * JS), on the schedule mix of the compute bench: 15 % of services hourly (reviewed, and discovered
 * with many payers), 55 % daily, 30 % weekly; about 10 % failing. That is about 4.2 checks per
 * service per day (419,000 a day at 100,000 services).
 *
 * Prints: live rows, archived rows and files, database and archive size on disk, directory
 * transition rows against the rows one-row-per-evaluation would have written, check_daily rows, and
 * a count by month over checks_all timed against the same count over the live table alone (ratio),
 * with the machine's load average.
 *
 *   npm run bench -- retention [--size N] [--days D] [--compute-every D] [--hourly H] [--keep DIR]
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { computeAll } from '../../pipeline/compute/index.ts';
import { fixedClock } from '../../pipeline/core/clock.ts';
import { migrate, openStore, runArchive, type Store } from '../../pipeline/store/index.ts';
import { makeContext } from '../helpers/context.ts';
import { timed } from './compute.ts';

interface Options {
  size: number;
  days: number;
  computeEvery: number;
  /** full computes at the last hours of the last day, as production runs them (hourly) */
  hourly: number;
  keep?: string;
}

const START = new Date('2026-07-01T00:00:00.000Z');
const DAY_MS = 86_400_000;

function parseArgs(args: string[]): Options {
  const o: Options = { size: 100_000, days: 130, computeEvery: 10, hourly: 6 };
  for (let i = 0; i < args.length; i++) {
    const v = args[i + 1];
    if (args[i] === '--size' && v) o.size = Number(args[++i]);
    else if (args[i] === '--days' && v) o.days = Number(args[++i]);
    else if (args[i] === '--compute-every' && v) o.computeEvery = Math.max(1, Number(args[++i]));
    else if (args[i] === '--hourly' && v) o.hourly = Number(args[++i]);
    else if (args[i] === '--keep' && v) o.keep = args[++i];
  }
  return o;
}

const iso = (d: Date): string => d.toISOString().replace('T', ' ').replace('Z', '');

/** The population: services, their primary operation and first interval, all monitored from START. */
async function population(store: Store, n: number): Promise<void> {
  const start = `TIMESTAMP '${iso(START)}'`;
  await store.run(`
    CREATE TABLE bench_pop AS
    SELECT i, CASE WHEN i % 20 = 0 THEN 'reviewed' ELSE 'discovered' END AS tier,
      CASE WHEN i % 20 = 0 THEN 'svc_' ELSE 'cand_' END || lpad(i::VARCHAR, 8, '0') AS id,
      CASE WHEN i % 4 = 1 THEN 'mcp' ELSE 'x402' END AS protocol,
      CASE WHEN i % 20 = 0 OR i % 10 = 1 THEN 1 WHEN i % 10 <= 6 THEN 24 ELSE 168 END AS hours
    FROM range(${n}) r(i)`);
  await store.run(`
    INSERT INTO services (id, tier, type, name, name_source, host, url, method, protocol, monitoring_since, first_seen_at,
      approved_at, registry_payers_30d, registry_networks, created_at, updated_at)
    SELECT id, tier, CASE WHEN protocol = 'mcp' THEN 'mcp_server' ELSE 'api_endpoint' END, id,
      CASE WHEN tier = 'reviewed' THEN 'atlas' ELSE 'registry' END, 'h' || (i % 5000) || '.example', 'https://h.example/' || id, 'GET',
      protocol, ${start}, CASE WHEN tier = 'discovered' THEN ${start} END, CASE WHEN tier = 'reviewed' THEN ${start} END,
      CASE hours WHEN 1 THEN 150 WHEN 24 THEN 20 ELSE 2 END, CASE WHEN protocol = 'x402' THEN ['eip155:8453'] ELSE [] END,
      ${start}, ${start}
    FROM bench_pop`);
  await store.run(`
    INSERT INTO operations (service_id, id, kind, is_primary, url, method, pass_rule, interval_hours)
    SELECT id, 'primary', 'call', true, 'https://h.example/' || id, 'GET',
      CASE WHEN tier = 'reviewed' THEN 'reviewed/1' WHEN protocol = 'mcp' THEN 'mcp-reach/3' ELSE 'x402-mainnet/1' END, hours
    FROM bench_pop`);
  await store.run(`
    INSERT INTO interval_changes SELECT id, 'primary', ${start}, NULL, hours, 'schedule/1',
      CASE WHEN tier = 'reviewed' THEN 'reviewed_fixed' ELSE 'new_until_third_probe' END FROM bench_pop`);
}

/** One simulated day of checks: hourly services every hour, daily ones once, weekly ones every 7th day. */
async function dayOfChecks(store: Store, day: number): Promise<void> {
  const d0 = `TIMESTAMP '${iso(new Date(START.getTime() + day * DAY_MS))}'`;
  await store.run(`
    INSERT INTO checks (service_id, operation, slot, checked_at, status, passed, reason, rule, latency_ms, run_id)
    SELECT id, 'primary', slot, slot + INTERVAL 7 SECOND, CASE WHEN ok THEN 402 ELSE 503 END, ok, CASE WHEN ok THEN 'ok' ELSE 'not_402' END,
      CASE WHEN tier = 'reviewed' THEN 'reviewed/1' WHEN protocol = 'mcp' THEN 'mcp-reach/3' ELSE 'x402-mainnet/1' END,
      50 + hash(id, slot) % 400, 'probe_bench'
    FROM (
      SELECT p.id, p.tier, p.protocol, ${d0} + to_hours(k) AS slot, hash(p.id, ${day}, k) % 10 <> 0 AS ok
      FROM bench_pop p CROSS JOIN range(24) r(k)
      WHERE p.hours = 1 OR (k = p.i % 24 AND (p.hours = 24 OR (p.i + ${day}) % 7 = 0))
    )
    ORDER BY slot`);
}

function folderBytes(root: string): { bytes: number; files: number } {
  if (!existsSync(root)) return { bytes: 0, files: 0 };
  let bytes = 0;
  let files = 0;
  for (const d of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!d.isFile()) continue;
    bytes += statSync(join(d.parentPath, d.name)).size;
    files++;
  }
  return { bytes, files };
}

const mb = (b: number): string => `${(b / 1024 / 1024).toFixed(1)} MB`;

export async function run(args: string[] = []): Promise<void> {
  const o = parseArgs(args);
  const dir = o.keep ?? mkdtempSync(join(tmpdir(), 'atlas-bench-retention-'));
  const ctxAt = (at: Date) => makeContext(dir, { clock: fixedClock(at) });
  const db = ctxAt(START).paths.db;
  const store = await openStore(db);
  try {
    await migrate(store, START);
    await population(store, o.size);
    let generateMs = 0;
    let computeMs = 0;
    let computes = 0;
    let archiveMs = 0;
    let archiveRuns = 0;
    const hourlyTransitions: number[] = [];
    for (let day = 0; day < o.days; day++) {
      generateMs += (await timed(() => dayOfChecks(store, day)))[1];
      const endOfDay = new Date(START.getTime() + (day + 1) * DAY_MS);
      if (day === o.days - 1) {
        // the last day: hourly full evaluations, as in production, to count transitions per hour
        for (let h = o.hourly; h >= 1; h--) {
          const [s, ms] = await timed(() => computeAll(ctxAt(new Date(endOfDay.getTime() - h * 3_600_000)), store, { scope: 'full' }));
          hourlyTransitions.push(s.directory_transitions);
          computeMs += ms;
          computes++;
        }
      }
      if ((day + 1) % o.computeEvery === 0 || day === o.days - 1) {
        computeMs += (await timed(() => computeAll(ctxAt(endOfDay), store, { scope: 'full' })))[1];
        computes++;
      }
      // the cycle's daily archive (a no-op until the first day passes the 100-day cut)
      const [r, ms] = await timed(() => runArchive(store, () => endOfDay));
      if (r.archived_rows > 0) {
        archiveMs += ms;
        archiveRuns++;
      }
    }
    await store.run('DROP TABLE bench_pop');
    await store.run('CHECKPOINT');
    const [c] = await store.all<{ live: number; archived: number; files: number; dir: number; evals: number; daily: number }>(`
      SELECT (SELECT count(*) FROM checks)::BIGINT AS live,
        (SELECT coalesce(sum(rows), 0) FROM archive_files)::BIGINT AS archived,
        (SELECT count(*) FROM archive_files)::BIGINT AS files,
        (SELECT count(*) FROM directory)::BIGINT AS dir,
        (SELECT count(*) FROM directory_evaluations)::BIGINT AS evals,
        (SELECT count(*) FROM check_daily)::BIGINT AS daily`);
    const byMonth = "SELECT strftime(checked_at, '%Y-%m') AS month, count(*) AS checks FROM {rel} GROUP BY 1 ORDER BY 1";
    // the baseline first (warms the live table), then checks_all; best of three each
    const best = async (rel: string) => {
      let ms = Number.POSITIVE_INFINITY;
      let rows: Array<{ month: string; checks: number }> = [];
      for (let i = 0; i < 3; i++) {
        const [r, t] = await timed(() => store.all<{ month: string; checks: number }>(byMonth.replace('{rel}', rel)));
        rows = r;
        ms = Math.min(ms, t);
      }
      return { rows, ms };
    };
    const live = await best('checks');
    const all = await best('checks_all');
    store.close();
    const dbBytes = statSync(db).size + (existsSync(`${db}.wal`) ? statSync(`${db}.wal`).size : 0);
    const archive = folderBytes(join(dir, 'archive'));
    const perEvaluation = Number(c!.evals) * o.size;
    const hourlyPerEvaluation = o.days * 24 * o.size;
    // after the first hour of the last day (whose transitions include the ten days since the last compute)
    const steady = hourlyTransitions.slice(1);
    const perHour = steady.length ? steady.reduce((a, b) => a + b, 0) / steady.length : Number.NaN;
    const hourlyTransitionRows = o.size + perHour * (o.days * 24 - 1);
    const load = loadavg()
      .map((x) => x.toFixed(1))
      .join(' / ');
    process.stdout.write(
      [
        `retention benchmark: ${o.size} services, ${o.days} simulated days, compute every ${o.computeEvery} days, archive daily (cut 100 days)`,
        `  checks: ${Number(c!.live) + Number(c!.archived)} in all; live ${c!.live}, archived ${c!.archived} in ${c!.files} files`,
        `  database file: ${mb(dbBytes)}; archive folder: ${mb(archive.bytes)} (${archive.files} files)`,
        `  directory: ${c!.dir} transition rows over the ${c!.evals} full evaluations run; one row per evaluation would be ${perEvaluation} (${(perEvaluation / Number(c!.dir)).toFixed(1)}x)`,
        `  hourly full evaluations on the last day: transitions ${hourlyTransitions.join(', ')} (the first follows ${o.computeEvery} days without one); ${perHour.toFixed(0)} per hour = ${((perHour / o.size) * 100).toFixed(2)} % of services`,
        `  at that rate, ${o.days} days of hourly evaluations: about ${Math.round(hourlyTransitionRows)} transition rows against ${hourlyPerEvaluation} per-evaluation rows (${(hourlyPerEvaluation / hourlyTransitionRows).toFixed(1)}x fewer)`,
        `  check_daily: ${c!.daily} rows`,
        `  checks_all by month: ${all.ms.toFixed(0)} ms (best of 3); live checks alone: ${live.ms.toFixed(0)} ms; ratio ${(all.ms / live.ms).toFixed(2)}`,
        ...all.rows.map((r) => `    ${r.month}  ${r.checks}`),
        `  generate ${(generateMs / 1000).toFixed(1)} s; ${computes} full computes ${(computeMs / 1000).toFixed(1)} s; ${archiveRuns} archive runs ${(archiveMs / 1000).toFixed(1)} s (${archiveRuns ? (archiveMs / archiveRuns / 1000).toFixed(2) : '-'} s each)`,
        `  machine load average (1/5/15 min) at the end: ${load}`,
        '',
      ].join('\n'),
    );
  } finally {
    try {
      store.close();
    } catch {
      // already closed
    }
    if (!o.keep) rmSync(dir, { recursive: true, force: true });
  }
}
