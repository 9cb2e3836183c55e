import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { COMPUTE_INSTANT_SQL, OPERATIONS_AS_OF_SQL, RESEARCH_QUERIES, type ResearchQuery, SERVICES_AS_OF_SQL } from './queries.ts';

/**
 * docs/research.md, generated from the query constants `atlas verify` runs (queries.ts), so the
 * document and verify can never disagree. `npx tsx pipeline/verify/research-doc.ts` rewrites the
 * file; test/pipeline/verify/research-doc.test.ts fails when it is stale and runs every query in it.
 */
export const RESEARCH_DOC_PATH = fileURLToPath(new URL('../../docs/research.md', import.meta.url));

/** The compute-instant query as a researcher runs it: the generation's generated_at written in. */
export const COMPUTE_INSTANT_EXAMPLE = COMPUTE_INSTANT_SQL.replace('$1::TIMESTAMP', "TIMESTAMP '2026-11-25 12:00:00'");

/** The as-of view for the snapshot opened in the DuckDB CLI (its catalog is the file's stem). */
export const OPERATIONS_AS_OF_EXAMPLE = `${OPERATIONS_AS_OF_SQL('"atlas-snapshot".main.operations')};`;

/** The services as-of view, the same way. */
export const SERVICES_AS_OF_EXAMPLE = `${SERVICES_AS_OF_SQL('"atlas-snapshot".main.services')};`;

/** The state of every operation at one instant (rules.sql, atlas_activity_as_of). */
export const ACTIVITY_AS_OF_EXAMPLE = `SELECT service_id, operation, listed, active, enabled, declared_interval_hours, interval_hours, in_force
FROM atlas_activity_as_of(TIMESTAMP '2026-11-20 12:00:00')
ORDER BY service_id, operation;`;

const section = (q: ResearchQuery): string =>
  [
    `### \`${q.id}\`: ${q.title}`,
    '',
    `Reproduces: ${q.figures.map((f) => `\`${f}\``).join(', ')}.`,
    '',
    q.notes,
    '',
    '```sql',
    `${q.sql};`,
    '```',
    '',
  ].join('\n');

export function researchDoc(): string {
  return `<!-- Generated from pipeline/verify/queries.ts by pipeline/verify/research-doc.ts; do not edit by hand. -->

# Reproducing the published figures

Every figure Atlas publishes about a service or in a weekly report is reproduced by one SQL query over
the database. The queries below are the exact texts \`atlas verify\` runs (pipeline/verify/queries.ts;
this file is generated from them), and they only select from the rules of
\`pipeline/store/rules.sql\`, the one definition of every rule (see its header for the rule → macro /
view table). Nothing here depends on Atlas's TypeScript: any DuckDB client gives the same answer.

## Where to run them

- **\`atlas sql\`** against \`data/atlas.duckdb\` (opened read-only, so it runs beside the pipeline).
  The global \`--now\` sets the instant the views read (\`atlas_now\`):

  \`\`\`
  npm run atlas -- --now 2026-11-25T12:00:00Z sql "SELECT service_id, checks_30d, pass_rate, freshness FROM evidence_30d"
  \`\`\`

  One command may hold several statements separated by \`;\` (\`SET VARIABLE …; SELECT …\`): they
  run in one session and the last one's rows are printed.

- **The DuckDB CLI** against the hourly snapshot \`data/snapshots/atlas-snapshot.duckdb\`, which nobody
  writes to (pipeline/store/snapshot.ts). Its views and macros are those of the Atlas version that
  wrote it. Set the instant yourself:

  \`\`\`
  duckdb -readonly data/snapshots/atlas-snapshot.duckdb
  SET TimeZone = 'UTC';
  SET VARIABLE atlas_now = TIMESTAMP '2026-11-25 12:00:00';
  \`\`\`

- **The research export** (\`atlas export --out DIR\`): the tables as Parquet files, checks
  partitioned by month, with the rules file beside them. [\`docs/research-guide.md\`](research-guide.md)
  shows how to name the files as tables and load the rules in DuckDB, after which these queries run
  unchanged, and how to read the files with Polars and pandas.

Without \`atlas_now\` the views use the wall clock. Times are UTC.

## Which instant

Figures depend on time (a 30-day window, freshness), so each is reproduced at the instant it was
published at, never "now":

- **Per-service evidence and payment terms**: the instant of the compute the generation published,
  the latest successful compute run started at or before the generation's \`generated_at\`
  (\`manifest.json\`):

  \`\`\`sql
  ${COMPUTE_INSTANT_EXAMPLE.split('\n').join('\n  ')};
  \`\`\`

- **Directory membership**: each service's own \`directory.evaluated_at\` as the API answers it
  (an evaluation covers the services that changed since the previous one, so instants differ between
  services). A published file \`api/v1/services/<id>.json\` gives it when its \`directory.scope\` is
  \`changed\`; when \`full\`, it is the hourly evaluation of every service, \`directory_full_evaluation_at\`
  in \`manifest.json\`. In the database: \`evaluated_at\` of the service's row in view \`directory_current\`.
- **A weekly report**: its window, \`atlas_report_from\` = \`week_start\` and
  \`atlas_report_until\` = \`figures_until\` of the report body:

  \`\`\`sql
  SET VARIABLE atlas_report_from = TIMESTAMP '2026-11-16 00:00:00';
  SET VARIABLE atlas_report_until = TIMESTAMP '2026-11-23 00:00:00';
  \`\`\`

Replaying a past instant: \`operations.interval_hours\`, \`operations.enabled\` and
\`declared_interval_hours\`, \`services.listed\` and \`services.active\` hold today's values. Every
change of them is kept: intervals in \`interval_changes\`, the rest as transitions in
\`service_activity\` and \`operation_activity\` (one row per change, the state from \`since\` until the
next row). Expected and missed checks already read that history (an operation expects checks only
while its service is active and it is enabled; \`listed\` is kept but not counted). The state of every operation at one
instant is one query:

\`\`\`sql
${ACTIVITY_AS_OF_EXAMPLE}
\`\`\`

To see the tables themselves as they were at \`atlas_now\`, create these TEMP views first in the
same session; they shadow the tables for that session, and every rule reads them (so
\`listing_criteria\` judges \`listed\` and \`listing_active\` on the state of that instant).
\`atlas verify\` does the same. The tables are named with their catalog, the database file's stem
(\`"atlas-snapshot"\` for the snapshot, \`"atlas"\` for \`data/atlas.duckdb\`): unqualified, the
name would resolve to the view itself.

\`\`\`sql
${OPERATIONS_AS_OF_EXAMPLE}

${SERVICES_AS_OF_EXAMPLE}
\`\`\`

Not historised: an MCP server's registry status (\`mcp_status\`) is read as it is now.

## The queries

${RESEARCH_QUERIES.map(section).join('\n')}
## Checking a published tree

\`atlas verify [--sample N] [--site DIR] [--json]\` runs these queries at the published instants and
compares every figure with the published files (\`api/v1/services/<id>.json\`,
\`api/v1/reports/<week>.json\`), one line per mismatch:

\`\`\`
<service-or-report-id>  <field>  published=<value>  recomputed=<value>
\`\`\`

Exit 0 when everything matches, 1 on any mismatch, 2 on bad usage. Each cycle verifies a sample of 50
services and every frozen report after it publishes, and counts the result in its run
(\`runs.counts\`: \`verified\`, \`mismatches\`).
`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(RESEARCH_DOC_PATH, researchDoc());
  console.log(`wrote ${RESEARCH_DOC_PATH}`);
}
