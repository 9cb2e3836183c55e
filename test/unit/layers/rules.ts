import { posix } from 'node:path';
import type { ImportRef } from './imports.ts';

/**
 * The import-direction rules (docs/CONTRACTS.md, Conventions: "Layers"), as data so a table test
 * can feed them synthetic imports. Paths are project-relative with forward slashes.
 */

/** What an import points at: a project file, a package (or node: builtin), or nothing checkable. */
export type Target = { kind: 'project'; path: string } | { kind: 'package'; name: string } | { kind: 'computed' };

export interface Rule {
  name: string;
  /** The rule in one sentence, printed with every violation. */
  says: string;
  /** Whether the rule constrains imports made by `file`. */
  appliesTo(file: string): boolean;
  /** Whether `file` may not import `target`. */
  forbids(target: Target): boolean;
}

export interface Violation {
  rule: string;
  file: string;
  line: number;
  specifier: string | null;
  target: Target;
}

/** Production code: everything `npm start`, the CLI and the server run. */
export const PRODUCTION_ROOTS = ['cli', 'pipeline', 'site', 'serve'] as const;

const under = (path: string, dir: string) => path === dir || path.startsWith(`${dir}/`);
const isProduction = (file: string) => PRODUCTION_ROOTS.some((r) => under(file, r));
const project = (t: Target, dir: string) => t.kind === 'project' && under(t.path, dir);

export const RULES: readonly Rule[] = [
  {
    name: 'production never imports test/',
    says: 'cli/, pipeline/, site/ and serve/ never import test/ (what npm start runs lives outside test/)',
    appliesTo: isProduction,
    forbids: (t) => project(t, 'test'),
  },
  {
    name: 'the batch side never imports serve/ or cli/',
    says: 'pipeline/ and site/ (publish, pages) never import serve/ or cli/; only cli/ wires both sides',
    appliesTo: (f) => under(f, 'pipeline') || under(f, 'site'),
    forbids: (t) => project(t, 'serve') || project(t, 'cli'),
  },
  {
    name: 'serve/ never imports the store',
    says: 'serve/ never imports pipeline/store/ or DuckDB: it reads the published tree through site/contract and pure helpers',
    appliesTo: (f) => under(f, 'serve'),
    forbids: (t) => project(t, 'pipeline/store') || (t.kind === 'package' && under(t.name, '@duckdb')),
  },
  {
    name: 'the contract imports only zod',
    says: 'site/contract/ imports nothing of the project outside site/contract/, and no package but zod',
    appliesTo: (f) => under(f, 'site/contract'),
    forbids: (t) => (t.kind === 'project' && !under(t.path, 'site/contract')) || (t.kind === 'package' && !under(t.name, 'zod')),
  },
  {
    name: 'no computed imports in production code',
    says: 'production code imports by string literal only: a computed import() escapes these rules and hides a missing part until run time',
    appliesTo: isProduction,
    forbids: (t) => t.kind === 'computed',
  },
];

/** Where `specifier`, imported by project file `file`, points. Relative and absolute paths are resolved. */
export function resolveImport(file: string, specifier: string | null, root: string): Target {
  if (specifier === null) return { kind: 'computed' };
  if (specifier.startsWith('./') || specifier.startsWith('../') || specifier === '.' || specifier === '..')
    return { kind: 'project', path: posix.normalize(posix.join(posix.dirname(file), specifier)) };
  const absolute = specifier.startsWith('file://') ? decodeURIComponent(new URL(specifier).pathname) : specifier;
  if (absolute.startsWith('/')) return { kind: 'project', path: posix.relative(root, absolute) };
  return { kind: 'package', name: specifier };
}

/** Every rule broken by the imports of one file. */
export function checkImports(file: string, imports: readonly ImportRef[], root = '/'): Violation[] {
  const out: Violation[] = [];
  for (const imp of imports) {
    const target = resolveImport(file, imp.specifier, root);
    for (const rule of RULES) {
      if (rule.appliesTo(file) && rule.forbids(target))
        out.push({ rule: rule.name, file, line: imp.line, specifier: imp.specifier, target });
    }
  }
  return out;
}

/** One line per violation: the file, the import, where it points and the rule it breaks. */
export function describeViolation(v: Violation, rule: Rule | undefined): string {
  const spec = v.specifier === null ? 'a computed import()' : `'${v.specifier}'`;
  const to = v.target.kind === 'project' ? ` (${v.target.path})` : '';
  return `${v.file}:${v.line} imports ${spec}${to}: ${rule?.says ?? v.rule}`;
}
