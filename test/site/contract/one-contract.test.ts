import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as common from '../../../site/contract/common.ts';
import { CRITERION_IDS } from '../../../site/contract/directory.ts';
import { ERROR_CODES } from '../../../site/contract/error.ts';

/**
 * One contract: site/contract depends on zod alone (imports point one way: the pipeline, publish and
 * serve import the contract, never the reverse), and every closed set of values is written once, in
 * the contract.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const CONTRACT = join(ROOT, 'site/contract');

function tsFiles(dir: string, ext = /\.ts$/): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...tsFiles(p, ext));
    else if (ext.test(name)) out.push(p);
  }
  return out;
}

const SPECIFIER = /(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s+['"]([^'"]+)['"]/g;
const specifiers = (text: string): string[] => [...text.matchAll(SPECIFIER)].map((m) => m[1]!);

describe('site/contract', () => {
  it('imports zod and its own files only', () => {
    const files = tsFiles(CONTRACT);
    expect(files.length).toBeGreaterThan(10);
    const outside: string[] = [];
    for (const f of files) {
      for (const s of specifiers(readFileSync(f, 'utf8'))) {
        if (s === 'zod') continue;
        const target = s.startsWith('.') ? resolve(dirname(f), s) : s;
        if (!target.startsWith(`${CONTRACT}/`)) outside.push(`${relative(ROOT, f)} → ${s}`);
      }
    }
    expect(outside).toEqual([]);
  });

  it('the import scan sees imports (a file importing the pipeline would be caught)', () => {
    expect(specifiers(`import { z } from 'zod';\nimport { X } from '../../pipeline/core/errors.ts';`)).toEqual([
      'zod',
      '../../pipeline/core/errors.ts',
    ]);
  });

  it('each closed set of values is written once in production code: in the contract', () => {
    const sets: Record<string, readonly string[]> = {
      SERVICE_TYPES: common.SERVICE_TYPES,
      NETWORKS_SOURCES: common.NETWORKS_SOURCES,
      FRESHNESS_VALUES: common.FRESHNESS_VALUES,
      CHECK_INTERVAL_NAMES: common.CHECK_INTERVAL_NAMES,
      TERMS_CHANGE_KINDS: common.TERMS_CHANGE_KINDS,
      PASS_RULES: common.PASS_RULES,
      CHECK_KINDS: common.CHECK_KINDS,
      RUN_STATUSES: common.RUN_STATUSES,
      JOB_KINDS: common.JOB_KINDS,
      FEEDBACK_KINDS: common.FEEDBACK_KINDS,
      OUTCOMES: common.OUTCOMES,
      FAILURE_KINDS: common.FAILURE_KINDS,
      SORTS: common.SORTS,
      ROADMAP_STATUSES: common.ROADMAP_STATUSES,
      CHECK_REASONS: common.CHECK_REASONS,
      SCHEDULE_REASONS: common.SCHEDULE_REASONS,
      MCP_STATUSES: common.MCP_STATUSES,
      OPERATION_KINDS: common.OPERATION_KINDS,
      DIRECTORY_SCOPES: common.DIRECTORY_SCOPES,
      CRITERION_IDS,
      ERROR_CODES,
    };
    const files = ['pipeline', 'serve', 'site', 'cli'].flatMap((d) => tsFiles(join(ROOT, d)));
    const texts = files.map((f) => [relative(ROOT, f), readFileSync(f, 'utf8').replace(/\s*\/\/[^\n]*/g, '')] as const);
    const written: Record<string, string[]> = {};
    for (const [name, values] of Object.entries(sets)) {
      // The list as source text (`'a', 'b', 'c'`), whatever the quotes and line breaks.
      const re = new RegExp(values.map((v) => `['"]${v.replace(/[/.]/g, '\\$&')}['"]`).join(String.raw`\s*,\s*`));
      written[name] = texts.filter(([, t]) => re.test(t)).map(([f]) => f);
    }
    for (const [name, where] of Object.entries(written)) {
      expect(where.length, `${name} written in ${where.join(', ')}`).toBe(1);
      expect(where[0]!.startsWith('site/contract/'), `${name} written in ${where[0]}`).toBe(true);
    }
  });

  it('the sunset day and the id pattern are written once', () => {
    const files = ['pipeline', 'serve', 'site', 'cli'].flatMap((d) => tsFiles(join(ROOT, d)));
    const holders = (needle: string) => files.filter((f) => readFileSync(f, 'utf8').includes(needle)).map((f) => relative(ROOT, f));
    expect(holders(common.SCHEDULE_TIER_SUNSET)).toEqual(['site/contract/common.ts']);
    expect(holders('(svc|cand)')).toEqual(['site/contract/common.ts']);
    expect(common.SCHEDULE_TIER_SUNSET_AT.toISOString()).toBe(`${common.SCHEDULE_TIER_SUNSET}T00:00:00.000Z`);
  });
});

/**
 * Every closed set of the contract, for the member scan below: a production file outside
 * site/contract that writes two or more members of one set as quoted literals restates (part of)
 * the set instead of importing it.
 */
const CONTRACT_SETS: Record<string, readonly string[]> = {
  ...Object.fromEntries(
    Object.entries(common).filter(([k, v]) => /^[A-Z][A-Z0-9_]+$/.test(k) && Array.isArray(v)) as [string, readonly string[]][],
  ),
  CRITERION_IDS,
  ERROR_CODES,
};

/**
 * Label maps typed by the set's own type (`Record<ServiceType, string>`, …) must name every member:
 * the type checker keeps them in step with the contract, so they are allowed.
 */
const LABEL_MAP_TYPES: Record<string, string> = {
  SERVICE_TYPES: 'ServiceType',
  SCHEDULE_REASONS: 'ScheduleReason',
  CHECK_INTERVAL_NAMES: 'IntervalName',
};

/** The sets of which `text` (a .ts or .sql file) writes two or more members as quoted literals. */
function restatedSets(path: string, text: string): string[] {
  let t = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/[^\n]*/g, '$1');
  if (path.endsWith('.sql')) t = t.replace(/--[^\n]*/g, '');
  const out: string[] = [];
  for (const [name, values] of Object.entries(CONTRACT_SETS)) {
    const label = LABEL_MAP_TYPES[name];
    if (label && new RegExp(`Record<${label}\\b`).test(t)) continue;
    const hits = values.filter((v) => t.includes(`'${v}'`) || t.includes(`"${v}"`));
    if (hits.length >= 2) out.push(name);
  }
  return out;
}

/**
 * Files that restate members today (file, set): a ratchet, not a licence. A new restatement fails;
 * an entry that no longer restates must be removed (so the list only shrinks). rules.sql is listed
 * because SQL must name values; its values are checked against the contract lists below.
 */
const KNOWN_RESTATEMENTS = new Set<string>([
  'cli/commands/ingest-registry.ts CHECK_KINDS',
  'cli/commands/sql.ts ERROR_CODES',
  'cli/commands/verify.ts ERROR_CODES',
  'pipeline/store/export.ts ERROR_CODES',
  'pipeline/core/textfile-metrics.ts RUN_STATUSES',
  'pipeline/store/run-textfile.ts RUN_STATUSES',
  'site/discovery/badge.ts FRESHNESS_VALUES',
  'site/discovery/llms.ts SORTS',
  'pipeline/compute/run.ts DIRECTORY_SCOPES',
  'pipeline/compute/schedule.ts SCHEDULE_REASONS',
  'pipeline/compute/status.ts FRESHNESS_VALUES',
  'pipeline/compute/status.ts RUN_STATUSES',
  'pipeline/core/config.ts CHECK_KINDS',
  'pipeline/core/errors.ts ERROR_CODES',
  'pipeline/core/signing-key.ts ERROR_CODES',
  'pipeline/cycle/cycle.ts DIRECTORY_SCOPES',
  'pipeline/cycle/cycle.ts JOB_KINDS',
  'pipeline/cycle/cycle.ts RUN_STATUSES',
  'cli/demo/step.ts JOB_KINDS',
  'cli/demo/summary.ts SERVICE_TIERS',
  'cli/demo/summary.ts SERVICE_TYPES',
  'pipeline/fleet/behaviours.ts CHECK_REASONS',
  // Fleet behaviour names that coincide with protocol names ('x402-v1', 'x402-v2').
  'pipeline/fleet/behaviours.ts PAYMENT_PROTOCOLS',
  'pipeline/fleet/catalogue.ts PAYMENT_PROTOCOLS',
  'pipeline/fleet/generate.ts PAYMENT_PROTOCOLS',
  'pipeline/fleet/config.ts CHECK_KINDS',
  'pipeline/fleet/docs.ts CHECK_REASONS',
  'pipeline/fleet/listings.ts CHECK_INTERVAL_NAMES',
  'pipeline/fleet/listings.ts CHECK_KINDS',
  'pipeline/fleet/listings.ts OPERATION_KINDS',
  'pipeline/fleet/listings.ts SERVICE_TYPES',
  'pipeline/fleet/model.ts CHECK_KINDS',
  'pipeline/fleet/plan.ts CHECK_KINDS',
  'pipeline/fleet/real-402.ts CHECK_REASONS',
  'pipeline/fleet/registry-mcp.ts MCP_STATUSES',
  'pipeline/fleet/registry-x402.ts CHECK_KINDS',
  'pipeline/fleet/types.ts CHECK_KINDS',
  'pipeline/fleet/types.ts CHECK_REASONS',
  'pipeline/ingest/discovered.ts CHECK_KINDS',
  'pipeline/ingest/discovered.ts SERVICE_TYPES',
  'pipeline/ingest/ids.ts CHECK_KINDS',
  'pipeline/ingest/listings/ingest.ts RUN_STATUSES',
  'pipeline/ingest/listings/rows.ts CHECK_KINDS',
  'pipeline/ingest/listings/rows.ts OPERATION_KINDS',
  'pipeline/ingest/listings/schema.ts CHECK_INTERVAL_NAMES',
  'pipeline/ingest/listings/schema.ts CHECK_KINDS',
  'pipeline/ingest/listings/schema.ts OPERATION_KINDS',
  'pipeline/ingest/listings/schema.ts SERVICE_TYPES',
  'pipeline/ingest/mcp/ingest.ts RUN_STATUSES',
  'pipeline/ingest/mcp/normalize.ts MCP_STATUSES',
  'pipeline/ingest/runs.ts RUN_STATUSES',
  'pipeline/ingest/source.ts ERROR_CODES',
  'pipeline/ingest/sync-state.ts CHECK_KINDS',
  'pipeline/ingest/x402/ingest.ts RUN_STATUSES',
  'pipeline/probe/classify-error.ts CHECK_REASONS',
  'pipeline/probe/due.ts OPERATION_KINDS',
  'pipeline/probe/reasons.ts CHECK_REASONS',
  'pipeline/probe/rules/mcp-reach.ts CHECK_REASONS',
  'pipeline/probe/rules/reviewed.ts CHECK_REASONS',
  'pipeline/probe/rules/x402-mainnet.ts CHECK_REASONS',
  // The classifier and the rule name protocols typed by the contract's PaymentProtocol.
  'pipeline/probe/rules/x402-mainnet.ts PAYMENT_PROTOCOLS',
  'pipeline/x402/classify-402.ts PAYMENT_PROTOCOLS',
  // Ingest notes that share a name with check reasons (testnet_only, unknown_network).
  'pipeline/ingest/x402/normalize.ts CHECK_REASONS',
  // A migration is SQL: it names the retired and the current x402 rule ids.
  'pipeline/store/migrations/021_check_protocols.sql PASS_RULES',
  'pipeline/probe/run-probe.ts ERROR_CODES',
  'pipeline/probe/run-probe.ts JOB_KINDS',
  'pipeline/probe/run-probe.ts RUN_STATUSES',
  'pipeline/probe/safe-fetch.ts CHECK_REASONS',
  'pipeline/probe/verdict.ts CHECK_REASONS',
  'pipeline/reports/corrections.ts ERROR_CODES',
  'pipeline/store/rules.sql CHECK_INTERVAL_NAMES',
  'pipeline/store/rules.sql CHECK_KINDS',
  'pipeline/store/rules.sql CRITERION_IDS',
  'pipeline/store/rules.sql FRESHNESS_VALUES',
  'pipeline/store/rules.sql NETWORKS_SOURCES',
  'pipeline/store/rules.sql PRICE_SOURCES',
  'pipeline/store/rules.sql SCHEDULE_REASONS',
  'pipeline/store/rules.sql SERVICE_TIERS',
  'pipeline/store/rules.sql SORTS',
  'pipeline/store/rules.sql TERMS_CHANGE_KINDS',
  'pipeline/store/runs.ts RUN_STATUSES',
  'pipeline/store/store.ts ERROR_CODES',
  'pipeline/verify/compare.ts CRITERION_IDS',
  'pipeline/verify/compare.ts SORTS',
  'pipeline/verify/queries.ts JOB_KINDS',
  'pipeline/verify/verify.ts ERROR_CODES',
  'serve/mcp/untrusted.ts NETWORKS_SOURCES',
  'serve/mcp/untrusted.ts PRICE_SOURCES',
  'serve/middleware/errors.ts ERROR_CODES',
  'serve/middleware/json-body.ts ERROR_CODES',
  'serve/operations/report-outcome.ts ERROR_CODES',
  'serve/pages/mount.ts ERROR_CODES',
  'site/pages/directory.ts NETWORKS_SOURCES',
  'site/pages/directory.ts PRICE_SOURCES',
  'site/pages/directory.ts SCOPES',
  'site/pages/directory.ts SERVICE_TIERS',
  'site/pages/directory.ts SORTS',
  'site/pages/service.ts NETWORKS_SOURCES',
  'site/pages/service.ts PRICE_SOURCES',
  'site/pages/status.ts RUN_STATUSES',
  'pipeline/publish/rows.ts NETWORKS_SOURCES',
  'pipeline/publish/rows.ts PRICE_SOURCES',
  'pipeline/publish/rows.ts SERVICE_TIERS',
]);

describe('contract sets: no production file restates members of a set', () => {
  it.each([
    ['a file importing the set', 'x.ts', "import { OUTCOMES } from './common.ts';\nconst o = OUTCOMES[0];", []],
    ['one member is a use, not a restatement', 'x.ts', "if (kind === 'call') run();", []],
    ['two members of a set', 'x.ts', "if (k === 'call' || k === 'documentation') ok();", ['OPERATION_KINDS']],
    ['double quotes too', 'x.ts', 'const s = z.enum(["full", "changed"]);', ['DIRECTORY_SCOPES']],
    ['in a SQL file', 'x.sql', "SELECT CASE WHEN s = 'deleted' THEN 'deprecated' END", ['MCP_STATUSES']],
    ['comments do not count', 'x.sql', "-- 'full' and 'changed'\nSELECT 1", []],
    [
      'a label map typed by the set',
      'x.ts',
      "const L: Record<ScheduleReason, string> = { 'reviewed_fixed': 'a', 'unlisted_7d': 'b' };",
      [],
    ],
  ] as const)('%s', (_name, path, text, want) => {
    expect(restatedSets(path, text)).toEqual(want);
  });

  it('outside site/contract, only the known restatements remain (and each is still there)', () => {
    const files = ['pipeline', 'serve', 'site', 'cli']
      .flatMap((d) => tsFiles(join(ROOT, d), /\.(ts|sql)$/))
      .filter((f) => !f.startsWith(`${CONTRACT}/`));
    const found = new Set<string>();
    for (const f of files) for (const set of restatedSets(f, readFileSync(f, 'utf8'))) found.add(`${relative(ROOT, f)} ${set}`);
    expect(
      [...found].filter((x) => !KNOWN_RESTATEMENTS.has(x)),
      'new restatements: import the set from site/contract/common.ts',
    ).toEqual([]);
    expect(
      [...KNOWN_RESTATEMENTS].filter((x) => !found.has(x)),
      'no longer restated: remove from KNOWN_RESTATEMENTS',
    ).toEqual([]);
  });

  it('values rules.sql names for a set are members of the contract list', () => {
    const sql = readFileSync(join(ROOT, 'pipeline/store/rules.sql'), 'utf8').replace(/--[^\n]*/g, '');
    const quoted = new Set([...sql.matchAll(/'([a-z0-9_]+)'/g)].map((m) => m[1]!));
    for (const name of ['SCHEDULE_REASONS', 'CHECK_INTERVAL_NAMES', 'FRESHNESS_VALUES', 'TERMS_CHANGE_KINDS', 'CRITERION_IDS']) {
      // rules.sql names every member of these sets; a renamed member here or there breaks the match.
      const values = CONTRACT_SETS[name]!;
      expect(
        values.filter((v) => !quoted.has(v)),
        `${name} members missing from rules.sql`,
      ).toEqual([]);
    }
  });
});
