import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importsOf, type ImportRef } from './imports.ts';
import { checkImports, describeViolation, folderEdges, mutualFolders, PRODUCTION_ROOTS, RULES, type Violation } from './rules.ts';

/**
 * Layers that enforce themselves (docs/CONTRACTS.md, Conventions: "Layers"): every source file of
 * the product is parsed and each import is checked against the import-direction rules. A failure
 * names the file, the line, the import and the rule it breaks.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SOURCE = /\.(ts|mts|cts|mjs|cjs|js)$/;

function sourceFiles(): string[] {
  const out: string[] = [];
  for (const top of PRODUCTION_ROOTS) {
    const entries = readdirSync(join(ROOT, top), { recursive: true, withFileTypes: true });
    for (const e of entries) {
      if (!e.isFile() || !SOURCE.test(e.name)) continue;
      const abs = join(e.parentPath, e.name);
      if (abs.split(sep).includes('node_modules')) continue;
      out.push(relative(ROOT, abs).split(sep).join('/'));
    }
  }
  return out.sort();
}

const files = sourceFiles();
const importsByFile = new Map<string, ImportRef[]>(files.map((f) => [f, importsOf(f, readFileSync(join(ROOT, f), 'utf8'))]));
const violations: Violation[] = files.flatMap((f) => checkImports(f, importsByFile.get(f)!, ROOT));

const imp = (specifier: string | null, kind: ImportRef['kind'] = 'import'): ImportRef => ({ kind, specifier, line: 1 });
const rulesBrokenBy = (file: string, specifier: string | null) => checkImports(file, [imp(specifier)]).map((v) => v.rule);

describe('import direction over the real tree', () => {
  it('scans every production source file, .ts and .mjs alike', () => {
    for (const top of PRODUCTION_ROOTS)
      expect(
        files.some((f) => f.startsWith(`${top}/`)),
        top,
      ).toBe(true);
    expect(files).toContain('cli/bin.mjs');
    expect(files).toContain('serve/mounts.ts');
    expect(files).toContain('site/contract/index.ts');
    expect(files.some((f) => f.startsWith('test/'))).toBe(false);
    // The parser sees the imports that are there: a static one, a re-export, a literal import().
    expect(importsByFile.get('cli/demo/run-demo.ts')).toContainEqual(expect.objectContaining({ specifier: '../../serve/server.ts' }));
    expect(importsByFile.get('serve/index.ts')).toContainEqual(expect.objectContaining({ kind: 'export-from', specifier: './app.ts' }));
    expect(importsByFile.get('cli/bin.mjs')).toContainEqual(expect.objectContaining({ kind: 'dynamic', specifier: './main.ts' }));
  });

  it('no two top-level folders import each other', () => {
    const edges = files.flatMap((f) => folderEdges(f, importsByFile.get(f)!, ROOT));
    expect(mutualFolders(edges)).toEqual([]);
    // What the folders do import, so a new direction is a visible change here.
    const pairs = [...new Set(edges.map((e) => `${e.from}>${e.to}`))].sort();
    expect(pairs).toEqual(['cli>pipeline', 'cli>serve', 'cli>site', 'pipeline>site', 'serve>pipeline', 'serve>site']);
  });

  for (const rule of RULES) {
    it(`${rule.name}`, () => {
      const broken = violations.filter((v) => v.rule === rule.name).map((v) => describeViolation(v, rule));
      expect(broken, `${broken.length} import(s) break the rule`).toEqual([]);
    });
  }
});

describe('the rules can fail (synthetic imports)', () => {
  const T = 'production never imports test/';
  const P = 'the pipeline never imports serve/ or cli/';
  const W = 'site/ depends on zod and nothing of ours below it';
  const S = 'serve/ imports the contract and the shared core only';
  const F = 'the simulator is imported only by cli/ and test/';
  const C = 'the contract imports only zod';
  const D = 'no computed imports in production code';
  it.each([
    // file, specifier, rules it breaks
    ['pipeline/cycle/cycle.ts', '../../test/fleet/index.ts', [T]],
    ['cli/commands/demo.ts', '../../test/helpers/context.ts', [T]],
    ['serve/app.ts', '../test/serve/fixture.ts', [T, S]],
    ['site/pages/service.ts', '../../test/site/pages/fixtures.ts', [T, W]],
    ['pipeline/cycle/cycle.ts', '../../serve/server.ts', [P]],
    ['pipeline/cycle/cycle.ts', '../../cli/context.ts', [P]],
    ['pipeline/publish/publish.ts', '../../serve/mounts.ts', [P]],
    ['site/pages/service.ts', '../../cli/main.ts', [W]],
    ['site/pages/service.ts', '../../pipeline/core/config.ts', [W]],
    ['site/discovery/llms.ts', '../../pipeline/publish/publish.ts', [W]],
    ['site/pages/service.ts', 'node:fs', [W]],
    ['site/pages/service.ts', 'hono', [W]],
    ['serve/site/holder.ts', '../../pipeline/store/index.ts', [S]],
    ['serve/operations/search.ts', '../../pipeline/publish/rows.ts', [S]],
    ['serve/operations/search.ts', '../../pipeline/x402/classify-402.ts', [S]],
    ['serve/deps.ts', '@duckdb/node-api', [S]],
    ['pipeline/cycle/cycle.ts', '../fleet/index.ts', [F]],
    ['pipeline/probe/run.ts', '../fleet/server.ts', [F]],
    ['serve/app.ts', '../pipeline/fleet/index.ts', [S, F]],
    ['site/contract/error.ts', '../../pipeline/core/errors.ts', [W, C]],
    ['site/contract/openapi.ts', '../pages/model.ts', [C]],
    ['site/contract/index.ts', 'node:fs', [W, C]],
    ['site/contract/error.ts', '../../serve/app.ts', [W, C]],
    ['serve/mounts.ts', null, [D]],
    ['pipeline/publish/publish.ts', null, [D]],
    // Allowed: cli imports everything; serve uses site/ and the shared core; the contract uses zod.
    ['cli/demo/run-demo.ts', '../../serve/server.ts', []],
    ['cli/demo/run-demo.ts', '../../pipeline/store/index.ts', []],
    ['cli/demo/config.ts', '../../pipeline/fleet/index.ts', []],
    ['pipeline/fleet/server.ts', './respond-x402.ts', []],
    ['serve/deps.ts', '../site/contract/service-list.ts', []],
    ['serve/deps.ts', '../pipeline/core/clock.ts', []],
    ['serve/pages/mount.ts', '../../site/pages/index.ts', []],
    ['pipeline/publish/publish.ts', '../../site/pages/index.ts', []],
    ['pipeline/publish/publish.ts', '../store/runs.ts', []],
    ['site/pages/service.ts', '../contract/index.ts', []],
    ['site/contract/error.ts', 'zod', []],
    ['site/contract/index.ts', './error.ts', []],
    ['test/layers/layers.test.ts', '../../serve/app.ts', []],
    ['test/fleet/fleet.test.ts', '../../pipeline/fleet/index.ts', []],
    ['test/serve/mounts.test.ts', null, []],
  ] as Array<[string, string | null, string[]]>)('%s importing %s breaks %j', (file, specifier, expected) => {
    expect(rulesBrokenBy(file, specifier).sort()).toEqual([...expected].sort());
  });

  it('finds two folders that import each other, and not one that is imported one way', () => {
    const edges = [
      ...folderEdges('site/pages/service.ts', [imp('../../pipeline/core/config.ts')]),
      ...folderEdges('pipeline/publish/publish.ts', [imp('../../site/pages/index.ts')]),
      ...folderEdges('serve/app.ts', [imp('../site/contract/index.ts')]),
      ...folderEdges('pipeline/core/config.ts', [imp('./errors.ts')]),
    ];
    expect(mutualFolders(edges)).toEqual([
      'pipeline/ and site/ import each other: pipeline/publish/publish.ts:1 imports site/, site/pages/service.ts:1 imports pipeline/',
    ]);
    expect(mutualFolders(edges.filter((e) => e.from !== 'site'))).toEqual([]);
  });

  it('names the file, the line, the import and the rule', () => {
    const [v] = checkImports('serve/site/holder.ts', [{ kind: 'import', specifier: '../../pipeline/store/index.ts', line: 7 }]);
    expect(v).toBeDefined();
    const rule = RULES.find((r) => r.name === v!.rule);
    expect(describeViolation(v!, rule)).toBe(
      `serve/site/holder.ts:7 imports '../../pipeline/store/index.ts' (pipeline/store/index.ts): ${rule!.says}`,
    );
  });

  it('resolves absolute paths and file: URLs against the project root', () => {
    expect(checkImports('serve/a.ts', [imp('/repo/pipeline/store/store.ts')], '/repo').map((v) => v.rule)).toEqual([S]);
    expect(checkImports('pipeline/a.ts', [imp('file:///repo/serve/app.ts')], '/repo').map((v) => v.rule)).toEqual([P]);
  });
});

describe('importsOf', () => {
  it('finds static, re-export, dynamic (literal and computed), type-position and require imports, and nothing else', () => {
    const src = [
      "import { a } from './a.ts';",
      "import type { B } from '../b.ts';",
      "import './side-effect.ts';",
      "export { c } from './c.ts';",
      "export * from './d.ts';",
      'export const local = 1;',
      "const e = await import('./e.ts');",
      'const f = await import(`./f.ts`);',
      "const g = await import(new URL('./g.ts', import.meta.url).href);",
      "type H = import('./h.ts').H;",
      "import i = require('./i.ts');",
      'const s = "import { x } from \'./not-an-import.ts\'";',
      "// import { y } from './commented-out.ts';",
    ].join('\n');
    expect(importsOf('x.ts', src)).toEqual([
      { kind: 'import', specifier: './a.ts', line: 1 },
      { kind: 'import', specifier: '../b.ts', line: 2 },
      { kind: 'import', specifier: './side-effect.ts', line: 3 },
      { kind: 'export-from', specifier: './c.ts', line: 4 },
      { kind: 'export-from', specifier: './d.ts', line: 5 },
      { kind: 'dynamic', specifier: './e.ts', line: 7 },
      { kind: 'dynamic', specifier: './f.ts', line: 8 },
      { kind: 'dynamic', specifier: null, line: 9 },
      { kind: 'import-type', specifier: './h.ts', line: 10 },
      { kind: 'require', specifier: './i.ts', line: 11 },
    ]);
  });

  it('reads .mjs files as JavaScript', () => {
    const src = "#!/usr/bin/env node\nconst { main } = await import('./main.ts');\nconst m = require('node:fs');\n";
    expect(importsOf('bin.mjs', src)).toEqual([
      { kind: 'dynamic', specifier: './main.ts', line: 2 },
      { kind: 'require', specifier: 'node:fs', line: 3 },
    ]);
  });
});
