import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { computeStats, computeStatus } from '../../pipeline/compute/index.ts';
import { AtlasError } from '../../pipeline/core/errors.ts';
import { currentReport, listReports, readFrozenReport } from '../../pipeline/reports/index.ts';
import { dbTimeToIso, type Store } from '../../pipeline/store/store.ts';
import {
  buildFields,
  buildOpenApi,
  ChangeList,
  Fields,
  Health,
  Report,
  ReportList,
  Roadmap,
  RoadmapFile,
  Stats,
  Status,
  type ChangeRecord,
  type RunRecord,
} from '../contract/index.ts';
import { ts } from './sql.ts';
import { validated, writeJson } from './write.ts';

/** The JSON resources of a generation besides the services (paths mirror the API). */
const api = (genDir: string, ...p: string[]) => join(genDir, 'api', 'v1', ...p);

export async function writeStats(store: Store, genDir: string, now: Date): Promise<void> {
  await writeJson(api(genDir, 'stats.json'), Stats, { api_status: 'preview', ...(await computeStats(store, now)) }, 'stats');
}

export async function writeStatus(store: Store, genDir: string, now: Date): Promise<void> {
  await writeJson(api(genDir, 'status.json'), Status, { api_status: 'preview', ...(await computeStatus(store, now)) }, 'status');
}

/** Probe runs older than this make /healthz say degraded (hourly schedule, one missed slot tolerated). */
export const HEALTH_PROBE_MAX_AGE_MS = 2 * 3_600_000;

/**
 * healthz.json: the latest run of each kind and the latest monitoring (probe) run. `status` is the
 * value at publish; serve recomputes it (and adds served_at) against its own clock.
 */
export async function writeHealth(store: Store, genDir: string, now: Date, generation: string): Promise<void> {
  const rows = await store.all<Record<string, string | null>>(`
    SELECT id, kind, status, scheduled_at, started_at, finished_at FROM runs WHERE started_at <= ${ts(now)}
    QUALIFY row_number() OVER (PARTITION BY kind ORDER BY started_at DESC, id DESC) = 1 ORDER BY kind`);
  const runs: RunRecord[] = rows.map((r) => ({
    id: String(r.id),
    kind: String(r.kind),
    status: String(r.status),
    scheduled_at: dbTimeToIso(r.scheduled_at),
    started_at: dbTimeToIso(r.started_at) ?? String(r.started_at),
    finished_at: dbTimeToIso(r.finished_at),
  }));
  const probe = runs.find((r) => r.kind === 'probe') ?? null;
  await writeJson(
    join(genDir, 'healthz.json'),
    Health,
    {
      api_status: 'preview',
      status: healthStatus(probe, now),
      generation,
      generated_at: now.toISOString(),
      latest_monitoring_run: probe,
      latest_runs: runs,
    },
    'healthz',
  );
}

export function healthStatus(probe: RunRecord | null, now: Date): Health['status'] {
  if (!probe) return 'no_data';
  if (probe.status === 'failed') return 'degraded';
  return now.getTime() - new Date(probe.started_at).getTime() > HEALTH_PROBE_MAX_AGE_MS ? 'degraded' : 'ok';
}

export async function writeRoadmap(roadmapPath: string, genDir: string): Promise<void> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(roadmapPath, 'utf8'));
  } catch (e) {
    throw new AtlasError('invalid_input', `roadmap ${roadmapPath} cannot be read: ${(e as Error).message}`);
  }
  const file = validated(RoadmapFile, raw, `roadmap ${roadmapPath}`);
  await writeJson(api(genDir, 'roadmap.json'), Roadmap, { api_status: 'preview', ...file }, 'roadmap');
}

export async function writeFieldsAndOpenApi(genDir: string, now: Date): Promise<void> {
  await writeJson(api(genDir, 'fields.json'), Fields, buildFields(now), 'fields');
  await writeFile(join(genDir, 'openapi.json'), JSON.stringify(buildOpenApi()));
}

/** Documentation changes of the last 90 days, newest first (serve filters by days / service / review). */
export const CHANGES_DAYS = 90;

export async function writeChanges(store: Store, genDir: string, now: Date): Promise<number> {
  const rows = await store.all<Record<string, unknown>>(`
    SELECT c.id, c.service_id, s.name AS service_name, c.url, c.detected_at, c.summary, c.added_lines, c.removed_lines,
      c.needs_review, c.review_terms, c.diff::VARCHAR AS diff
    FROM changes c LEFT JOIN services s ON s.id = c.service_id
    WHERE c.detected_at <= ${ts(now)} AND c.detected_at > ${ts(now)} - INTERVAL ${CHANGES_DAYS} DAY
    ORDER BY c.detected_at DESC, c.id`);
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
  await writeJson(
    api(genDir, 'changes.json'),
    ChangeList,
    {
      api_status: 'preview',
      generated_at: now.toISOString(),
      query: { days: CHANGES_DAYS },
      window_start: new Date(now.getTime() - CHANGES_DAYS * 86_400_000).toISOString(),
      total: items.length,
      items,
    },
    'changes',
  );
  return items.length;
}

/**
 * Weekly reports from pipeline/reports: `index.json` (frozen weeks, newest first), one file per
 * frozen week with its corrections, and `current.json` (provisional week-to-date figures).
 */
export async function writeReports(store: Store, genDir: string, now: Date): Promise<number> {
  const list = await listReports(store, now);
  await writeJson(api(genDir, 'reports', 'index.json'), ReportList, list, 'reports index');
  for (const item of list.items) {
    const report = await readFrozenReport(store, new Date(`${item.id}T00:00:00Z`));
    if (report) await writeJson(api(genDir, 'reports', `${item.id}.json`), Report, report, `report ${item.id}`);
  }
  await writeJson(api(genDir, 'reports', 'current.json'), Report, await currentReport(store, now), 'current report');
  return list.items.length;
}
