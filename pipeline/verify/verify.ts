import { existsSync } from 'node:fs';
import { readdir, readFile, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { detailAtGeneration, type GenerationInstants } from '../../site/contract/answer-time.ts';
import type { ServiceDetailFile } from '../../site/contract/service-detail.ts';
import { AtlasError } from '../core/errors.ts';
import { dbTimeToIso, type Store } from '../store/store.ts';
import {
  compareDeclared,
  type CatalogStandingRow,
  compareCatalogStanding,
  compareDirectory,
  type DeclaredRow,
  compareReport,
  compareOutcomeReports,
  compareServiceFigures,
  type DirectoryRow,
  type OutcomeCountRow,
  type EvidenceRow,
  type Mismatch,
  sampleIds,
  type TermsRow,
} from './compare.ts';
import { compareSignedOffers, type SignedOffersRow } from './signed-offers.ts';
import {
  COMPUTE_INSTANT_SQL,
  OPERATIONS_AS_OF_SQL,
  SERVICES_AS_OF_SQL,
  REPORT_FIGURES,
  SERVICE_DECLARED,
  SERVICE_CATALOGS,
  SERVICE_DIRECTORY,
  SERVICE_EVIDENCE,
  SERVICE_OUTCOME_REPORTS,
  SERVICE_SIGNED_OFFERS,
  SERVICE_TERMS,
} from './queries.ts';
import { recheckReceipts } from './receipts.ts';

/**
 * `atlas verify` (recompute mode): recompute the published figures of one generation from the raw
 * tables with the documented queries (queries.ts, docs/research.md) and compare them with the files.
 * Every query is evaluated at the generation's own instant, never at the wall clock, so a tree
 * verifies the same way later: per-service evidence and payment terms at the instant of the compute
 * the generation published, each directory evaluation at its own evaluated_at, each frozen report over
 * its window [week_start, figures_until). Operations and services are replayed as of that instant
 * (the interval from the interval history, enabled / listed / active from the activity transitions;
 * OPERATIONS_AS_OF_SQL, SERVICES_AS_OF_SQL).
 *
 * Only reads: the store may be a read-only connection (beside researchers) or the cycle's own; the
 * session state this sets (a TEMP view, a TEMP table, variables) is removed before returning.
 */

export interface VerifyOptions {
  /** Check a deterministic sample of this many services (seeded by the generation id); default all. */
  sample?: number;
}

export interface VerifyResult {
  generation: string;
  generated_at: string;
  /** The instant the per-service figures were recomputed at (the generation's compute). */
  computed_at: string;
  checked: { services: number; reports: number; receipts: number };
  mismatches: Mismatch[];
}

/** The generation folder of DIR: DIR itself when it holds manifest.json, else DIR/current. */
export async function generationFolder(dir: string): Promise<string> {
  if (existsSync(join(dir, 'manifest.json'))) return dir;
  const current = join(dir, 'current');
  if (existsSync(join(current, 'manifest.json'))) return realpath(current);
  throw new AtlasError(
    'not_found',
    `no published generation at ${dir} (neither manifest.json nor current/manifest.json); run \`atlas publish\``,
  );
}

async function readJson(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as unknown;
  } catch (e) {
    throw new AtlasError('invalid_input', `${path}: ${(e as Error).message}`);
  }
}

const api = (gen: string, ...p: string[]) => join(gen, 'api', 'v1', ...p);

/** Published service ids: the detail files of the generation. */
async function publishedServiceIds(gen: string): Promise<string[]> {
  const files = await readdir(api(gen, 'services')).catch(() => [] as string[]);
  return files.filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -'.json'.length));
}

/** Frozen report ids listed by the generation's reports index. */
async function publishedReportIds(gen: string): Promise<string[]> {
  const path = api(gen, 'reports', 'index.json');
  if (!existsSync(path)) return [];
  const index = (await readJson(path)) as { items?: Array<{ id?: unknown }> };
  return (index.items ?? []).map((i) => String(i.id));
}

/** Tables a sampled verify narrows to the sample's services (see verifyGeneration). */
const SAMPLED_TABLES = ['checks', 'payment_terms'] as const;

const setTime = (store: Store, name: string, iso: string) => store.run(`SET VARIABLE ${name} = $1::TIMESTAMP`, [iso]);

/** Run a per-service documented query for the ids in temp table _verify_ids only. */
const forSample = <T>(store: Store, sql: string) =>
  store.all<T>(`SELECT q.* FROM (${sql}) q SEMI JOIN _verify_ids v ON v.id = q.service_id ORDER BY q.service_id`);

export async function verifyGeneration(store: Store, tree: string, opts: VerifyOptions = {}): Promise<VerifyResult> {
  const gen = await generationFolder(tree);
  const manifest = (await readJson(join(gen, 'manifest.json'))) as {
    generation?: unknown;
    generated_at?: unknown;
    directory_full_evaluation_at?: unknown;
  };
  const generation = String(manifest.generation ?? '');
  const generatedAt = String(manifest.generated_at ?? '');
  if (!generation || Number.isNaN(Date.parse(generatedAt)))
    throw new AtlasError('invalid_input', `${join(gen, 'manifest.json')}: no generation id or generated_at`);

  const [instant] = await store.all<{ computed_at: string | null }>(COMPUTE_INSTANT_SQL, [generatedAt]);
  const computedAt = dbTimeToIso(instant?.computed_at ?? null) ?? instant?.computed_at ?? generatedAt;

  const allIds = await publishedServiceIds(gen);
  const ids = opts.sample === undefined ? [...allIds].sort() : sampleIds(allIds, opts.sample, generation);
  const reportIds = await publishedReportIds(gen);
  const mismatches: Mismatch[] = [];
  let receipts = 0;

  const [{ db } = { db: '' }] = await store.all<{ db: string }>('SELECT current_database() AS db');
  try {
    const main = `"${db.replace(/"/g, '""')}".main`;
    await store.run(OPERATIONS_AS_OF_SQL(`${main}.operations`));
    await store.run(SERVICES_AS_OF_SQL(`${main}.services`));
    await store.run(`CREATE OR REPLACE TEMP TABLE _verify_ids AS SELECT unnest(string_split($1, chr(10))) AS id`, [ids.join('\n')]);
    // A sample's figures are per service, each from its own checks and payment requests: the rules'
    // views read the sample's rows only (temp views shadow the tables, as for operations above), so
    // a cycle's verify costs the sample, not the whole directory. Dropped before the reports, which
    // count every service.
    if (opts.sample !== undefined)
      for (const t of SAMPLED_TABLES)
        await store.run(
          `CREATE OR REPLACE TEMP VIEW ${t} AS SELECT * FROM ${main}.${t} WHERE service_id IN (SELECT id FROM temp.main._verify_ids)`,
        );

    // Evidence and payment terms at the compute instant.
    await setTime(store, 'atlas_now', computedAt);
    const evidence = new Map((await forSample<EvidenceRow>(store, SERVICE_EVIDENCE.sql)).map((r) => [r.service_id, r]));
    const terms = new Map((await forSample<TermsRow>(store, SERVICE_TERMS.sql)).map((r) => [r.service_id, r]));
    const declared = new Map((await forSample<DeclaredRow>(store, SERVICE_DECLARED.sql)).map((r) => [r.service_id, r]));
    const catalogs = new Map((await forSample<CatalogStandingRow>(store, SERVICE_CATALOGS.sql)).map((r) => [r.service_id, r]));
    const signed = new Map((await forSample<SignedOffersRow>(store, SERVICE_SIGNED_OFFERS.sql)).map((r) => [r.service_id, r]));

    // A service file holds evidence.monitoring_days and payment_terms.window_start as of its own
    // render, which may be an earlier generation's (site/contract/service-file.ts), and leaves the
    // full evaluation's instant out of directory.evaluated_at; the server answers them completed for
    // the generation (site/contract/answer-time.ts: the days and the window counted to its data_as_of,
    // the evaluation instant from the manifest), and that answer is what is compared.
    const runLog = existsSync(join(gen, 'run-log.json')) ? ((await readJson(join(gen, 'run-log.json'))) as { data_as_of?: unknown }) : null;
    const instants: GenerationInstants = {
      generatedAt,
      dataAsOf: typeof runLog?.data_as_of === 'string' ? runLog.data_as_of : null,
      fullEvaluationAt: typeof manifest.directory_full_evaluation_at === 'string' ? manifest.directory_full_evaluation_at : null,
    };
    const bodies = new Map<string, Record<string, unknown>>();
    for (const id of ids) {
      const file = (await readJson(api(gen, 'services', `${id}.json`))) as ServiceDetailFile;
      bodies.set(id, detailAtGeneration(file, instants) as unknown as Record<string, unknown>);
    }
    for (const id of ids) mismatches.push(...compareServiceFigures(bodies.get(id), evidence.get(id), terms.get(id)));
    for (const id of ids) mismatches.push(...compareDeclared(bodies.get(id), declared.get(id)));
    for (const id of ids) mismatches.push(...compareCatalogStanding(bodies.get(id), catalogs.get(id)));
    for (const id of ids) mismatches.push(...compareSignedOffers(bodies.get(id), signed.get(id)));

    // Directory membership at each evaluation's own instant (the answer's directory.evaluated_at).
    const byInstant = new Map<string, string[]>();
    for (const [id, body] of bodies) {
      const at = (body.directory as { evaluated_at?: unknown } | undefined)?.evaluated_at;
      if (typeof at === 'string') byInstant.set(at, [...(byInstant.get(at) ?? []), id]);
    }
    const directory = new Map<string, DirectoryRow>();
    for (const [at, group] of [...byInstant].sort(([a], [b]) => (a < b ? -1 : 1))) {
      await setTime(store, 'atlas_now', at);
      const want = new Set(group);
      for (const r of await forSample<DirectoryRow>(store, SERVICE_DIRECTORY.sql))
        if (want.has(r.service_id)) directory.set(r.service_id, r);
    }
    for (const [id, body] of bodies) mismatches.push(...compareDirectory(body, directory.get(id) ?? null));

    // Outcome reports per receipt state and moderation state at the publish instant.
    await setTime(store, 'atlas_now', generatedAt);
    const outcomeRows = await forSample<OutcomeCountRow>(store, SERVICE_OUTCOME_REPORTS.sql);
    for (const [id, body] of bodies)
      mismatches.push(
        ...compareOutcomeReports(
          id,
          body,
          outcomeRows.filter((r) => r.service_id === id),
        ),
      );

    // Frozen reports over their own windows, over every service.
    for (const t of SAMPLED_TABLES) await store.run(`DROP VIEW IF EXISTS temp.main.${t}`);
    // Every receipt verdict, made again from the raw receipt over all rows (not sampled: they are few).
    const rc = await recheckReceipts(store);
    receipts = rc.checked;
    mismatches.push(...rc.mismatches);
    for (const id of reportIds) {
      const published = (await readJson(api(gen, 'reports', `${id}.json`))) as {
        report?: { week_start?: unknown; figures_until?: unknown };
      };
      const from = String(published.report?.week_start ?? '');
      const until = String(published.report?.figures_until ?? '');
      if (Number.isNaN(Date.parse(from)) || Number.isNaN(Date.parse(until))) {
        mismatches.push({
          id: `reports/${id}`,
          field: 'report.figures_until',
          published: published.report?.figures_until,
          recomputed: undefined,
        });
        continue;
      }
      await setTime(store, 'atlas_report_from', from);
      await setTime(store, 'atlas_report_until', until);
      const rows = await store.all<{ figure: string; value: number | null }>(REPORT_FIGURES.sql);
      mismatches.push(...compareReport(id, published, new Map(rows.map((r) => [r.figure, r.value === null ? null : Number(r.value)]))));
    }
  } finally {
    // Leave the session as found: the cycle goes on using this connection.
    for (const sql of [
      'DROP VIEW IF EXISTS temp.main.operations',
      'DROP VIEW IF EXISTS temp.main.services',
      ...SAMPLED_TABLES.map((t) => `DROP VIEW IF EXISTS temp.main.${t}`),
      'DROP TABLE IF EXISTS temp.main._verify_ids',
      'RESET VARIABLE atlas_now',
      'RESET VARIABLE atlas_report_from',
      'RESET VARIABLE atlas_report_until',
    ])
      await store.run(sql).catch(() => undefined);
  }
  return {
    generation,
    generated_at: generatedAt,
    computed_at: computedAt,
    checked: { services: ids.length, reports: reportIds.length, receipts },
    mismatches,
  };
}
