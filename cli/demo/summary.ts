import { computeStatus } from '../../pipeline/compute/index.ts';
import type { Store } from '../../pipeline/store/index.ts';

/** What `atlas demo` prints once ready. Plain numbers from the database (no rule lives here). */
export interface DemoSummary {
  services: number;
  byTier: Record<string, number>;
  byType: Record<string, number>;
  inDirectory: number;
  checks: number;
  checksPassed: number;
  checks24h: number;
  behaviours: number;
  fleetEndpoints: number;
  days: number;
  cycles: number;
  readyMs: number;
  /** Missed checks across the index (sum of missed_30d) and the checks expected (checks + missed). */
  missed?: number;
  expected?: number;
  /** Wall time of each start-up phase in ms (fleet, backfill, publish, save, serve), in order. */
  phases?: Record<string, number>;
  /** The back-fill's time per step kind in ms (probe, compute, ingest_*, docs, reports, wait). */
  backfillSteps?: Record<string, number>;
  /** Missed runs per job over the status page's 30-day window at start-up (the status rule's figures). */
  missedRuns?: Record<string, number>;
  /** The simulated Atlas outage, when there was one. */
  outage?: { start: Date; end: Date } | null;
}

const n = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));

export async function readSummaryCounts(
  store: Store,
  now: Date,
  cycleEveryMinutes: number,
): Promise<
  Pick<
    DemoSummary,
    'services' | 'byTier' | 'byType' | 'inDirectory' | 'checks' | 'checksPassed' | 'checks24h' | 'missed' | 'expected' | 'missedRuns'
  >
> {
  const tiers = await store.all<{ k: string; c: unknown }>('SELECT tier AS k, count(*) AS c FROM services GROUP BY tier');
  const types = await store.all<{ k: string; c: unknown }>('SELECT type AS k, count(*) AS c FROM services GROUP BY type');
  const dir = await store.all<{ c: unknown }>('SELECT count(*) AS c FROM directory_current WHERE in_directory');
  const checks = await store.all<{ c: unknown; p: unknown; d: unknown }>(
    `SELECT count(*) AS c, count(*) FILTER (WHERE passed) AS p,
            count(*) FILTER (WHERE checked_at >= $1::TIMESTAMP - INTERVAL 24 HOUR) AS d FROM checks`,
    [now.toISOString()],
  );
  // The published evidence's own figures (the evidence table compute wrote), summed over the index.
  const ev = await store.all<{ m: unknown; c: unknown }>('SELECT sum(missed_30d) AS m, sum(checks_30d) AS c FROM evidence');
  // What the status page shows: its figures at `now` (pipeline/compute/status.ts, the run-windows rule).
  const status = await computeStatus(store, now, { cycleEveryMinutes });
  const missedRuns = Object.fromEntries(status.jobs.map((j) => [j.kind, j.windows['30d'].missed]));
  const byTier = Object.fromEntries(tiers.map((r) => [r.k, n(r.c)]));
  const byType = Object.fromEntries(types.map((r) => [r.k, n(r.c)]));
  return {
    services: Object.values(byTier).reduce((a, b) => a + b, 0),
    byTier,
    byType,
    inDirectory: n(dir[0]?.c),
    checks: n(checks[0]?.c),
    checksPassed: n(checks[0]?.p),
    checks24h: n(checks[0]?.d),
    missed: n(ev[0]?.m),
    expected: n(ev[0]?.m) + n(ev[0]?.c),
    missedRuns,
  };
}

/** The lines printed when the demo is ready: where to look, and what is there. Pure. */
export function formatSummary(s: DemoSummary, url: string, plan?: { coarseHours: number; recentHours: number }): string {
  const t = (k: string, m: Record<string, number>) => m[k] ?? 0;
  const pl = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
  const sec = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const list = (m: Record<string, number>) =>
    Object.entries(m)
      .map(([k, v]) => `${k} ${sec(v)}`)
      .join(', ');
  const list0 = (m: Record<string, number>) =>
    Object.entries(m)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
  return [
    '',
    `Atlas demo is ready in ${(s.readyMs / 1000).toFixed(1)} s — a simulated ecosystem on loopback, measured by real probes.`,
    ...(s.phases
      ? [
          `  Start-up: ${Object.entries(s.phases)
            .map(([k, v]) => (k === 'backfill' && s.backfillSteps ? `backfill ${sec(v)} (${list(s.backfillSteps)})` : `${k} ${sec(v)}`))
            .join(', ')}.`,
        ]
      : []),
    '',
    `  Directory        ${url}/`,
    `  A service page   ${url}/services/<id>   (follow any name in the directory)`,
    `  Status           ${url}/status`,
    `  Weekly reports   ${url}/reports`,
    `  API              ${url}/api/v1/services   ${url}/api/v1/stats   ${url}/openapi.json`,
    `  MCP endpoint     ${url}/mcp`,
    '',
    `  Fleet: ${s.fleetEndpoints} endpoints covering ${s.behaviours} behaviours (x402, MCP, websites, failures of every kind).`,
    `  History: ${s.days} simulated days in ${s.cycles} cycles of real checks` +
      (plan
        ? plan.coarseHours <= 1
          ? ' (every scheduled hour, except the outage below).'
          : ` (every ${plan.coarseHours} h, then hourly for the last ${plan.recentHours} h: hourly checks between those cycles show as missed, never as failed).`
        : '.'),
    `  Services tracked: ${s.services} (${t('reviewed', s.byTier)} reviewed, ${t('discovered', s.byTier)} discovered; ` +
      `${pl(t('api_endpoint', s.byType), 'x402 endpoint', 'x402 endpoints')}, ${pl(t('mcp_server', s.byType), 'MCP server', 'MCP servers')}, ${pl(t('task_marketplace', s.byType), 'task marketplace', 'task marketplaces')}).`,
    `  In the directory: ${s.inDirectory} (meet every listing criterion; the rest are searchable with scope=index).`,
    `  Checks recorded: ${s.checks} (${s.checksPassed} passed; ${s.checks24h} in the last 24 hours).`,
    ...(s.missed !== undefined && s.expected
      ? [
          `  Missed checks: ${s.missed} of ${s.expected} scheduled (${((100 * s.missed) / s.expected).toFixed(2)}%)` +
            (s.outage
              ? `; the simulated Atlas outage ${s.outage.start.toISOString().slice(0, 16)}–${s.outage.end.toISOString().slice(11, 16)} UTC ran no cycle.`
              : '.'),
        ]
      : []),
    ...(s.missedRuns
      ? [
          `  Missed runs (status page, 30 days): ${list0(s.missedRuns)}` +
            (plan && plan.coarseHours <= 1
              ? ` (the back-fill probes every hour but computes daily, hourly in the last ${plan.recentHours} h, and publishes once, at start-up: the status page leaves compute's and publish's back-filled slots out and says so).`
              : '.'),
        ]
      : []),
    '',
    '  A cycle runs every hour (probes, compute, publish). Press Ctrl-C to stop.',
    '',
  ].join('\n');
}
