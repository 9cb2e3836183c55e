import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChangeRecord } from '../../site/contract/changes.ts';
import type { DeclaredDifferenceChange } from '../../site/contract/declared-terms.ts';
import { SERVICE_TIERS, SERVICE_TYPES, type ServiceTier, type ServiceType } from '../../site/contract/common.ts';
import type { IndexRecord } from '../../site/contract/index-record.ts';
import { emptyOutcomeReportCounts } from '../../site/contract/moderation.ts';
import { emptyOutcomeReportsByReceipt } from '../../site/contract/outcome-receipt.ts';
import { ReportList } from '../../site/contract/reports.ts';
import type { ServiceDetail } from '../../site/contract/service-detail.ts';
import { Stats } from '../../site/contract/stats.ts';
import { Status } from '../../site/contract/status.ts';
import { RunLog } from '../../site/contract/run-log.ts';
import { freshnessAt } from '../../site/contract/freshness.ts';
import { writeIndexFiles } from '../helpers/index-files.ts';

/**
 * A small published tree for serve tests and the bench, written the way CONTRACTS.md "Published
 * tree" describes (generations/<id>/..., `current` switched by an atomic rename). Services are
 * built from a few knobs so each test states exactly what it relies on.
 */
const HOUR = 3_600_000;
const DAY = 86_400_000;

export interface ServiceSpec {
  id: string;
  tier?: ServiceTier;
  type?: ServiceType;
  name?: string;
  host?: string;
  url?: string;
  operator?: string | null;
  tags?: string[];
  price?: number | null;
  networks?: string[];
  mainnet?: boolean | null;
  checks30d?: number;
  passed30d?: number;
  monitoringDays?: number;
  /** Hours before `now` of the latest check; null = never checked. */
  lastCheckAgoHours?: number | null;
  intervalHours?: 1 | 24 | 168 | 720;
  payers?: number | null;
  listed?: boolean | null;
  latestPassed?: boolean | null;
  templated?: boolean;
  termsChanges90d?: number | null;
  /** The published declared-against-observed state (rule declared-terms/1); default null (nothing compared). */
  declaredTerms?: IndexRecord['summary']['declared_terms'];
  /** Every listing criterion other than freshness passed. */
  criteriaExceptFresh?: boolean;
}

const INTERVAL_NAME = { 1: 'hourly', 24: 'daily', 168: 'weekly', 720: 'monthly' } as const;

export function buildService(spec: ServiceSpec, now: Date): { record: IndexRecord; detail: ServiceDetail } {
  const tier = spec.tier ?? (spec.id.startsWith('svc_') ? 'reviewed' : 'discovered');
  const type = spec.type ?? 'api_endpoint';
  const host = spec.host ?? `${spec.id.replace(/_/g, '-')}.example.test`;
  const url = spec.url ?? `https://${host}/v1/call`;
  const name = spec.name ?? `Service ${spec.id}`;
  const operator = spec.operator === undefined ? (tier === 'reviewed' ? 'Example Operator' : null) : spec.operator;
  const interval = spec.intervalHours ?? 1;
  const checks = spec.checks30d ?? 100;
  const passed = spec.passed30d ?? Math.round(checks * 0.95);
  const lastAgo = spec.lastCheckAgoHours === undefined ? 0.5 : spec.lastCheckAgoHours;
  const lastCheckAt = lastAgo === null ? null : new Date(now.getTime() - lastAgo * HOUR).toISOString();
  const monitoringDays = spec.monitoringDays ?? 40;
  const monitoringSince = new Date(now.getTime() - monitoringDays * DAY).toISOString();
  const networks = spec.networks ?? (type === 'mcp_server' ? [] : ['eip155:8453']);
  const mainnet = spec.mainnet === undefined ? (networks.length ? true : null) : spec.mainnet;
  const passRate = checks > 0 ? passed / checks : null;
  const freshness = freshnessAt(lastCheckAt === null ? null : Date.parse(lastCheckAt), interval, now.getTime());
  const fresh = freshness === 'fresh';
  const criteriaExceptFresh = spec.criteriaExceptFresh ?? true;
  const latestPassed = spec.latestPassed === undefined ? (lastCheckAt ? true : null) : spec.latestPassed;
  const payers = spec.payers === undefined ? (tier === 'discovered' ? 10 : null) : spec.payers;
  const listed = spec.listed === undefined ? (tier === 'discovered' ? true : null) : spec.listed;
  const termsChanges =
    spec.termsChanges90d === undefined ? (tier === 'discovered' && type === 'api_endpoint' ? 0 : null) : spec.termsChanges90d;
  const summary: IndexRecord['summary'] = {
    id: spec.id,
    tier,
    type,
    name,
    name_source: tier === 'reviewed' ? 'atlas' : 'registry',
    host,
    url,
    method: 'GET',
    templated_url: spec.templated ?? false,
    operator,
    tags: spec.tags ?? [],
    category: null,
    price_usd: spec.price === undefined ? 0.01 : spec.price,
    max_price_usd: null,
    price_source: spec.price === null ? null : tier === 'reviewed' ? 'operator' : 'registry',
    provider_endpoints: 1,
    networks,
    networks_source: tier === 'reviewed' ? 'operator' : 'observed',
    mainnet,
    evidence: {
      operations: 1,
      check_interval_hours: interval,
      check_interval: INTERVAL_NAME[interval],
      check_interval_rule: 'schedule/1',
      schedule_tier: INTERVAL_NAME[interval],
      monitoring_since: monitoringSince,
      monitoring_days: monitoringDays,
      limited_evidence: monitoringDays < 30,
      checks_30d: checks,
      passed_30d: passed,
      missed_30d: 0,
      pass_rate: passRate,
      freshness,
      last_check: lastCheckAt
        ? {
            checked_at: lastCheckAt,
            operation: 'primary',
            status: 402,
            passed: latestPassed ?? false,
            reason: 'ok',
            latency_ms: 50,
            rule: 'x402-mainnet/2',
            protocols: ['x402-v2'],
            auth_schemes: null,
          }
        : null,
    },
    registry_usage: tier === 'discovered' ? { registry: 'cdp', calls_30d: 100, payers_30d: payers, last_called_at: null } : null,
    registry_listing:
      tier === 'discovered'
        ? {
            registry: 'cdp',
            listed: listed ?? false,
            status: null,
            first_seen_at: monitoringSince,
            last_seen_at: monitoringSince,
            unlisted_at: null,
            updated_at: null,
            x402_version: 2,
            remote_type: null,
            catalogs: [{ kind: 'x402', name: 'cdp', since: monitoringSince, until: listed ? null : monitoringSince }],
            // the rule of view catalog_standing over this one catalog and the latest check
            listed_but_failing: latestPassed === null || latestPassed === undefined ? null : Boolean(listed) && !latestPassed,
            passing_but_unlisted: latestPassed === null || latestPassed === undefined ? null : !listed && latestPassed,
          }
        : null,
    payment_terms:
      termsChanges === null
        ? null
        : {
            current_since: monitoringSince,
            changes_30d: 0,
            changes_90d: termsChanges,
            pay_to_changes_90d: 0,
            last_change_at: null,
            last_change_kinds: [],
            window_start: monitoringSince,
            limited: true,
          },
    declared_terms: spec.declaredTerms ?? null,
    links: { page: `/services/${spec.id}`, api: `/api/v1/services/${spec.id}` },
  };
  const record: IndexRecord = {
    summary,
    in_directory: criteriaExceptFresh && fresh,
    search: {
      haystack: [name, host, url, operator ?? ''].join(' ').toLowerCase(),
      payers_30d: payers,
      listed,
      latest_passed: latestPassed,
      last_check_at: lastCheckAt,
      check_interval_hours: interval,
      terms_changes_90d: termsChanges,
      criteria_except_fresh: criteriaExceptFresh,
    },
  };
  const crit = (
    id: 'checks_30d' | 'fresh' | 'pass_rate' | 'listed' | 'mainnet_offer' | 'listing_active',
    applies: boolean,
    ok: boolean,
    value: number | string | boolean | null,
    threshold: number | string | boolean | null,
  ) => ({
    id,
    description: id,
    applies,
    passed: applies ? ok : null,
    value,
    threshold,
  });
  const detail: ServiceDetail = {
    ...summary,
    api_status: 'preview',
    outcome_reports: emptyOutcomeReportCounts(),
    outcome_reports_by_receipt: emptyOutcomeReportsByReceipt(),
    signed_offers: null,
    generated_at: now.toISOString(),
    data_as_of: now.toISOString(),
    description: null,
    in_directory: record.in_directory,
    directory: {
      rule: 'listing-criteria/1',
      evaluated_at: now.toISOString(),
      in_directory: record.in_directory,
      criteria: [
        crit('checks_30d', true, checks >= 3, checks, 3),
        crit('fresh', true, fresh, summary.evidence.freshness, 'fresh'),
        crit('pass_rate', true, criteriaExceptFresh, passRate, 0.8),
        crit('listed', tier === 'discovered', listed === true, listed, true),
        crit('mainnet_offer', tier === 'discovered', mainnet === true, mainnet, true),
        crit('listing_active', tier === 'reviewed', true, true, true),
      ],
    },
    claims: [],
    operations: [],
    recent_checks: [],
    daily_checks: [],
    current_terms: null,
    terms_changes: [],
    declared_sources: [],
    declared_differences: [],
    interval_history: [],
    catalog_history: [],
    registry_text: null,
  };
  return { record, detail };
}

/** Deterministic varied services for the bench and the property test. */
export function generateSpecs(n: number): ServiceSpec[] {
  const types = ['api_endpoint', 'api_endpoint', 'mcp_server', 'task_marketplace'] as const;
  const nets = [['eip155:8453'], ['eip155:84532'], ['solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', 'eip155:8453'], []];
  const out: ServiceSpec[] = [];
  for (let i = 0; i < n; i++) {
    const reviewed = i % 50 === 0;
    const type = types[i % types.length]!;
    const networks = type === 'mcp_server' ? [] : nets[i % 3]!;
    out.push({
      id: reviewed ? `svc_service-${i}` : `cand_${i.toString(16).padStart(20, '0')}`,
      tier: reviewed ? 'reviewed' : 'discovered',
      type,
      name: `${['Weather', 'Search', 'Translate', 'Image', 'Price'][i % 5]} API ${i}`,
      host: `host${i % Math.max(1, Math.floor(n / 3))}.example${i % 7}.test`,
      tags: [['weather'], ['search', 'web'], ['ai'], []][i % 4]!,
      price: i % 6 === 0 ? null : ((i % 100) + 1) / 1000,
      networks,
      mainnet: networks.length ? networks.some((x) => x !== 'eip155:84532') : null,
      checks30d: (i * 7) % 720,
      passed30d: Math.floor(((i * 7) % 720) * (0.5 + (i % 5) / 10)),
      monitoringDays: i % 120,
      lastCheckAgoHours: i % 13 === 0 ? null : (i % 5) * 0.7,
      intervalHours: ([1, 24, 168, 720] as const)[i % 4]!,
      payers: reviewed ? null : i % 9 === 0 ? null : i % 300,
      listed: reviewed ? null : i % 17 !== 0,
      latestPassed: i % 13 === 0 ? null : i % 4 !== 1,
      templated: i % 23 === 0,
      termsChanges90d: reviewed || type !== 'api_endpoint' ? null : i % 4,
      criteriaExceptFresh: i % 3 !== 0,
    });
  }
  return out;
}

export interface GenerationOptions {
  generation: string;
  now: Date;
  services: ServiceSpec[];
  changes?: ChangeRecord[];
  /** The change feed's declared-against-observed events (rule declared-terms/1). */
  declaredChanges?: DeclaredDifferenceChange[];
  reports?: Record<string, Record<string, unknown>>;
  /** Write one detail file per service (the bench writes them all too). */
  details?: boolean;
  extra?: { openapi?: unknown; fields?: unknown };
  /** The published run log (`run-log.json`); absent → no run log (a generation published before it existed). */
  runLog?: RunLog;
}

function writeJson(path: string, value: unknown): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, JSON.stringify(value));
}

/** Write a generation and switch `current` to it atomically (symlink + rename, like publish). */
export function writeGeneration(siteDir: string, opts: GenerationOptions): string {
  const dir = join(siteDir, 'generations', opts.generation);
  rmSync(dir, { recursive: true, force: true });
  const built = opts.services.map((s) => buildService(s, opts.now));
  // provider_endpoints as the pipeline computes it: tracked services on the same host (itself included).
  const perHost = new Map<string, number>();
  for (const b of built) perHost.set(b.record.summary.host, (perHost.get(b.record.summary.host) ?? 0) + 1);
  for (const b of built) {
    const n = perHost.get(b.record.summary.host)!;
    b.record.summary.provider_endpoints = n;
    b.detail.provider_endpoints = n;
  }
  const records = built.map((b) => b.record);
  writeIndexFiles(dir, records);
  if (opts.details !== false) {
    mkdirSync(join(dir, 'api', 'v1', 'services'), { recursive: true });
    for (const b of built) writeFileSync(join(dir, 'api', 'v1', 'services', `${b.detail.id}.json`), JSON.stringify(b.detail));
  }
  const gen = opts.now.toISOString();
  const api = join(dir, 'api', 'v1');
  // Published resources are contract bodies (validated here), so MCP output schemas accept them.
  const countBy = <K extends string>(keys: readonly K[], of: (r: IndexRecord) => string) =>
    Object.fromEntries(keys.map((k) => [k, records.filter((r) => of(r) === k).length])) as Record<K, number>;
  const byKind = { reviewed: 0, x402: 0, mcp: 0 };
  writeJson(
    join(api, 'stats.json'),
    Stats.parse({
      api_status: 'preview',
      generated_at: gen,
      data_as_of: opts.runLog?.data_as_of ?? gen,
      totals: {
        services: records.length,
        in_directory: records.filter((r) => r.in_directory).length,
        by_tier: countBy(SERVICE_TIERS, (r) => r.summary.tier),
        by_type: countBy(SERVICE_TYPES, (r) => r.summary.type),
      },
      checks_24h: 0,
      passed_24h: 0,
      checks_24h_by_kind: byKind,
      passed_24h_by_kind: byKind,
      windows: { checks: '24h' },
    }),
  );
  writeJson(
    join(api, 'status.json'),
    Status.parse({
      api_status: 'preview',
      generated_at: gen,
      data_as_of: opts.runLog?.data_as_of ?? gen,
      cycle_every_minutes: opts.runLog?.cycle_every_minutes ?? 5,
      operating_since: null,
      backfills: [],
      jobs: [],
      latest_runs: [],
      evidence_freshness: { fresh: 0, stale: 0, no_data: 0, total: 0 },
    }),
  );
  if (opts.runLog) writeJson(join(dir, 'run-log.json'), RunLog.parse(opts.runLog));
  writeJson(join(api, 'roadmap.json'), {
    api_status: 'preview',
    measured_today: ['checks'],
    items: [{ id: 'search', title: 'Search', status: 'done', done_on: null }],
    note: 'Planned, not promised; no dates.',
  });
  writeJson(
    join(api, 'fields.json'),
    opts.extra?.fields ?? { api_status: 'preview', generated_at: gen, version: '0.1.0-preview', fields: [] },
  );
  writeJson(join(api, 'changes.json'), {
    api_status: 'preview',
    generated_at: gen,
    items: opts.changes ?? [],
    declared_differences: opts.declaredChanges ?? [],
  });
  const reports = opts.reports ?? {};
  const field = (body: Record<string, unknown>, k: string, fallback: unknown) => body[k] ?? fallback;
  writeJson(
    join(api, 'reports', 'index.json'),
    ReportList.parse({
      api_status: 'preview',
      generated_at: gen,
      items: Object.entries(reports)
        .filter(([k]) => k !== 'current')
        .map(([id, body]) => ({
          id,
          week_start: field(body, 'week_start', id),
          week_end: field(body, 'week_end', id),
          frozen_at: field(body, 'frozen_at', gen),
          corrections: Array.isArray(body.corrections) ? body.corrections.length : 0,
          links: { api: `/api/v1/reports/${id}` },
        })),
      current: reports.current ? { api: '/api/v1/reports/current' } : null,
    }),
  );
  for (const [id, body] of Object.entries(reports)) writeJson(join(api, 'reports', `${id}.json`), body);
  writeJson(join(dir, 'healthz.json'), {
    api_status: 'preview',
    status: 'ok',
    generation: opts.generation,
    generated_at: gen,
    latest_monitoring_run: {
      id: 'run_1',
      kind: 'probe',
      scheduled_at: null,
      started_at: new Date(opts.now.getTime() - 10 * 60_000).toISOString(),
      finished_at: gen,
      status: 'ok',
    },
    latest_runs: [],
  });
  writeJson(
    join(dir, 'openapi.json'),
    opts.extra?.openapi ?? { openapi: '3.1.0', info: { title: 'Atlas', version: '0.1.0-preview' }, paths: {} },
  );
  writeJson(join(dir, 'manifest.json'), {
    generation: opts.generation,
    generated_at: gen,
    rule: 'listing-criteria/1',
    api_version: '0.1.0-preview',
    counts: {
      services: records.length,
      in_directory: records.filter((r) => r.in_directory).length,
      details: records.length,
      reports: Object.keys(reports).length,
      changes: opts.changes?.length ?? 0,
    },
    pages: false,
  });
  const tmp = join(siteDir, `current.tmp-${opts.generation}`);
  rmSync(tmp, { force: true });
  symlinkSync(join('generations', opts.generation), tmp);
  renameSync(tmp, join(siteDir, 'current'));
  return dir;
}
