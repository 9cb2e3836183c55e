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

const projectOutside = (t: Target, ...dirs: string[]) => t.kind === 'project' && !dirs.some((d) => under(t.path, d));

/** The folder of `path` one level below the project root (`pipeline` for a file under pipeline/store). */
export const topFolder = (path: string): string => path.split('/')[0] ?? path;

export const RULES: readonly Rule[] = [
  {
    name: 'production never imports test/',
    says: 'cli/, pipeline/, site/ and serve/ never import test/ (what npm start runs lives outside test/)',
    appliesTo: isProduction,
    forbids: (t) => project(t, 'test'),
  },
  {
    name: 'the pipeline never imports serve/ or cli/',
    says: 'pipeline/ (ingest, probe, compute, publish) never imports serve/ or cli/; only cli/ wires both sides',
    appliesTo: (f) => under(f, 'pipeline'),
    forbids: (t) => project(t, 'serve') || project(t, 'cli'),
  },
  {
    name: 'site/ depends on zod and nothing of ours below it',
    says: 'site/ (the contract, the pages, the discovery documents) imports nothing outside site/ and no package but zod',
    appliesTo: (f) => under(f, 'site'),
    forbids: (t) => projectOutside(t, 'site') || (t.kind === 'package' && !under(t.name, 'zod')),
  },
  {
    name: 'serve/ imports the contract and the shared core only',
    says: 'serve/ imports of the project only serve/, site/ (the contract and its views) and pipeline/core/ (the shared core), and never DuckDB',
    appliesTo: (f) => under(f, 'serve'),
    forbids: (t) => projectOutside(t, 'serve', 'site', 'pipeline/core') || (t.kind === 'package' && under(t.name, '@duckdb')),
  },
  {
    name: 'the simulator is imported only by cli/ and test/',
    says: 'pipeline/fleet/ (the simulated world) is imported only by cli/, test/ and itself; the product never depends on it',
    appliesTo: (f) => !under(f, 'cli') && !under(f, 'test') && !under(f, 'pipeline/fleet'),
    forbids: (t) => project(t, 'pipeline/fleet'),
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

/** One import of one top-level folder by another: `from` imports `to` at `file:line`. */
export interface FolderEdge {
  from: string;
  to: string;
  file: string;
  line: number;
}

/**
 * The rule over the whole graph, which no single import breaks: no two top-level folders import
 * each other. Returns one line per pair that does, naming one import each way.
 */
export function mutualFolders(edges: readonly FolderEdge[]): string[] {
  const first = new Map<string, FolderEdge>();
  for (const e of edges) if (e.from !== e.to && !first.has(`${e.from}>${e.to}`)) first.set(`${e.from}>${e.to}`, e);
  const out: string[] = [];
  for (const e of first.values()) {
    const back = first.get(`${e.to}>${e.from}`);
    if (back && e.from < e.to)
      out.push(
        `${e.from}/ and ${e.to}/ import each other: ${e.file}:${e.line} imports ${e.to}/, ${back.file}:${back.line} imports ${e.from}/`,
      );
  }
  return out;
}

/** The top-level folder edges of one file's project imports. */
export function folderEdges(file: string, imports: readonly ImportRef[], root = '/'): FolderEdge[] {
  const out: FolderEdge[] = [];
  for (const imp of imports) {
    const t = resolveImport(file, imp.specifier, root);
    if (t.kind === 'project' && topFolder(t.path) !== topFolder(file))
      out.push({ from: topFolder(file), to: topFolder(t.path), file, line: imp.line });
  }
  return out;
}

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
