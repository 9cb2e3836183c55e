import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  checkDecisions,
  checkReferences,
  decisionNumbers,
  describeFinding,
  type FindingKind,
  pathsIn,
  type Tree,
  viewsOf,
} from './references.ts';

/**
 * Every reference in the repository can be followed from the repository alone (rules in
 * ./references.ts): no citation of documents kept elsewhere, no path to a file that is not here.
 * A failure names the file, the line and what it cites.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCANNED = /^(cli|pipeline|site|serve|test|data|docs|\.ci)\/|^(README\.md|biome\.jsonc|vitest\.config\.ts|package\.json)$/;
const BINARY = /\.(png|jpe?g|gif|ico|webp|woff2?|parquet|duckdb)$/;
/** The checker and this test spell out the citations they look for. */
const SELF = ['test/layers/references.ts', 'test/layers/references.test.ts'];

const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);

function treeOf(files: readonly string[]): Tree {
  const known = new Set<string>();
  for (const f of files) {
    const parts = f.split('/');
    for (let i = 1; i <= parts.length; i++) known.add(parts.slice(0, i).join('/'));
  }
  return { has: (p) => known.has(p) };
}

const tree = treeOf(tracked);
const scanned = tracked.filter((f) => SCANNED.test(f) && !BINARY.test(f) && !SELF.includes(f));

describe('references over the tracked files', () => {
  it('scans code, SQL, docs and data alike', () => {
    for (const f of [
      'README.md',
      'docs/design.md',
      'docs/api.md',
      'pipeline/store/rules.sql',
      'cli/bin.mjs',
      'serve/app.ts',
      'data/roadmap.json',
    ])
      expect(scanned, f).toContain(f);
    expect(scanned.some((f) => f.startsWith('docs/notes/'))).toBe(true);
  });

  const decisions = decisionNumbers(readFileSync(join(ROOT, 'docs/design.md'), 'utf8'));
  const findings = scanned.flatMap((f) => {
    const source = readFileSync(join(ROOT, f), 'utf8');
    return [...checkReferences(f, source, tree), ...checkDecisions(f, source, decisions)];
  });
  it('reads the numbered Decisions of docs/design.md', () => {
    expect(decisions).toEqual(Array.from({ length: decisions.length }, (_, i) => i + 1));
    expect(decisions.length).toBeGreaterThanOrEqual(9);
  });
  it.each<FindingKind>(['outside-document', 'missing-path'])('no %s reference', (kind) => {
    const bad = findings.filter((f) => f.kind === kind).map(describeFinding);
    expect(bad, `${bad.length} reference(s) a reader of the repository cannot follow`).toEqual([]);
  });
});

describe('the checker can fail (synthetic lines)', () => {
  const files = [
    'docs/design.md',
    'docs/reference.md',
    'docs/notes/serve.md',
    'docs/notes/fleet.md',
    'pipeline/core/clock.ts',
    'pipeline/store/rules.sql',
  ];
  const synthetic = treeOf(files);
  it.each([
    // file, line, what it should find (null: nothing)
    ['pipeline/core/clock.ts', '// The clock is a parameter (DESIGN.md decision 3).', 'DESIGN.md'],
    ['pipeline/core/clock.ts', '/** Paging per REFERENCE.md: step by the echoed limit. */', 'REFERENCE.md'],
    ['serve/deps.ts', '/** Cached up to 5 minutes (spec 2.1 rule 1). */', 'spec 2'],
    ['serve/routes/api.ts', '/**\n * The HTTP routes of spec section 4.\n */', 'spec section 4'],
    ['docs/notes/serve.md', "Every endpoint of the spec's section 4.", "spec's section 4"],
    ['test/site/contract/openapi.test.ts', "it('has the path parameter patterns of section 4', () => {", 'section 4'],
    ['docs/notes/compute.md', 'Choices where the spec leaves room', 'the spec'],
    ['README.md', 'The contract is `../shared/spec/directory-service-api.md`.', 'directory-service-api'],
    ['docs/notes/probe.md', 'See [the design](../missing.md).', '../missing.md'],
    ['docs/notes/probe.md', 'Merged by compute (docs/scale.md).', 'docs/scale.md'],
    ['pipeline/core/clock.ts', '/** One home: pipeline/store/rule.sql. */', 'pipeline/store/rule.sql'],
    ['pipeline/store/rules.sql', '-- see docs/notes/missing.md', 'docs/notes/missing.md'],
    ['test/pipeline/ingest/x402/normalize.test.ts', "it('tags by the spec rule', () => {});", 'the spec'],
    ['docs/notes/serve.md', 'The parameters of [the search](../api.md#get-apiv1services) and [notes](./gone.md).', './gone.md'],
    // Lines that are fine.
    ['pipeline/fleet/server.ts', 'if (spec) serveEndpoint(state, spec, req, res); // docs/notes/fleet.md', null],
    ['pipeline/core/clock.ts', '// The clock is a parameter (docs/design.md, decision 3).', null],
    ['pipeline/core/clock.ts', 'const pr = paymentRequiredV2(spec, url, offersAt(spec, now, state.timeline)); // docs/reference.md', null],
    [
      'docs/notes/serve.md',
      'Writes go to `data/inbox/*.jsonl`; the tree to data/public/<generation>/ and [the rules](../design.md#decisions).',
      null,
    ],
    ['docs/notes/serve.md', 'See https://example.com/docs/missing.md and `/api/v1/services`.', null],
    [
      'docs/notes/serve.md',
      "Migrations: `pipeline/store/migrations/NNN_name.sql`; imports as `import { x } from '../core/errors.ts'`.",
      null,
    ],
    ['docs/notes/serve.md', '```\nnpm run atlas -- verify --tree ./mirror/current\n```', null],
    ['pipeline/store/rules.sql', "SELECT '../shared/x' AS s -- (docs/api.md, Evidence)", '../shared/'],
  ] as const)('%s: %s', (file, line, expected) => {
    const found = checkReferences(file, line, synthetic).map((f) => f.found);
    if (expected === null) expect(found).toEqual([]);
    else expect(found).toContain(expected);
  });

  it('reads only the comments of code, so a path in a string is not prose', () => {
    const src = "const a = 'docs/missing.md'; // see docs/design.md\n/* docs/gone.md */ const b = '// not a comment';\n";
    const views = viewsOf('x.ts', src);
    const squeeze = (lines: string[]) => lines.map((l) => l.replace(/\s+/g, ' ').trim());
    expect(squeeze(views.prose)).toEqual(['// see docs/design.md', '/* docs/gone.md */', '']);
    expect(squeeze(views.text)).toEqual(["'docs/missing.md' // see docs/design.md", "/* docs/gone.md */ '// not a comment'", '']);
    expect(checkReferences('pipeline/x.ts', src, synthetic).map(describeFinding)).toEqual([
      expect.stringMatching(/^pipeline\/x\.ts:2: docs\/gone\.md — no such file/),
    ]);
  });

  it('knows which decisions docs/design.md has', () => {
    const design = '## Decisions\n\n1. **One writer.** x\n2. **Logs.** y\n\n## Rules\n\n3. **Not a decision.**\n';
    expect(decisionNumbers(design)).toEqual([1, 2]);
    expect(
      checkDecisions('serve/a.ts', '// docs/design.md, decision 2\n// docs/design.md, decision 3', [1, 2]).map(describeFinding),
    ).toEqual(['serve/a.ts:2: docs/design.md, decision 3 — docs/design.md has no decision 3']);
  });

  it('resolves ./ and ../ against the file and keeps globs and placeholders out', () => {
    expect(pathsIn('docs/notes/serve.md', 'see ../design.md and ./compute.md').map((p) => p.resolved)).toEqual([
      'docs/design.md',
      'docs/notes/compute.md',
    ]);
    expect(pathsIn('docs/x.md', 'data/inbox/*.jsonl, data/public/<generation>/, test/{unit,e2e}')).toEqual([]);
  });
});
