import { posix } from 'node:path';
import ts from 'typescript';

/**
 * References a reader of this repository alone can follow: no comment or doc line cites a document
 * that is not in the repository (a design or reference file kept elsewhere, or the API text by
 * section number), and every path a comment or doc names points at a file that exists. The in-repo
 * homes are docs/design.md, docs/reference.md, docs/api.md (generated from site/contract/),
 * docs/CONTRACTS.md, docs/notes/ and pipeline/store/rules.sql. Pure: text in, findings out; the test
 * feeds it the tracked files.
 */

export type FindingKind = 'outside-document' | 'missing-path';

export interface Finding {
  kind: FindingKind;
  /** Project-relative path with forward slashes. */
  file: string;
  /** 1-based line. */
  line: number;
  /** What was found: the citation or the path. */
  found: string;
  /** Why it is a finding, printed with it. */
  says: string;
}

/**
 * Citations of documents outside the repository. Matched on whole lines (comments, docs and
 * strings alike: a user-facing string may not cite them either), so each pattern is narrow enough
 * not to match code such as a variable named `spec`.
 */
export const OUTSIDE_CITATIONS: readonly { name: string; re: RegExp }[] = [
  { name: 'the design file kept outside the repository (cite docs/design.md)', re: /\bDESIGN\.md\b/ },
  { name: 'the protocol notes kept outside the repository (cite docs/reference.md)', re: /\bREFERENCE\.md\b/ },
  { name: 'the API text kept outside the repository (cite docs/api.md or the contract)', re: /directory-service-api/i },
  // The one outside location the project names on purpose: the real public data that tests and
  // benchmarks read at run time from beside the checkout (never committed; see docs/notes/ingest.md, "Real data").
  { name: 'a path outside the repository', re: /\.\.\/shared\/(?!realdata\b)/ },
  { name: 'the API text by section number (cite docs/api.md or state the rule)', re: /\bspec(?:'s)?\s+(?:sections?\s+|§\s*)?\d/i },
  {
    name: 'the API text by section number (cite docs/api.md or state the rule)',
    re: /(?<![\w.-])sections?\s+\d+(?:\.\d+)*(?![\w.-]*\.md)/i,
  },
  { name: 'the API text by section number (cite docs/api.md or state the rule)', re: /\bpart\s+\d\b/i },
  { name: '"the spec" as an authority (say "the API contract (docs/api.md)" or state the rule)', re: /\bthe spec\b|\bspec's\b|\(spec\)/i },
];

/** Where a path named in prose is looked up. */
export interface Tree {
  /** Whether a project-relative path (forward slashes, no leading `./`) is a tracked file or a folder holding one. */
  has(path: string): boolean;
}

/** Top-level folders a root-relative path in prose starts with. */
const ROOTS = ['cli', 'pipeline', 'site', 'serve', 'test', 'data', 'docs', '.ci'];

/** Runtime or generated locations (git-ignored): named in docs, never tracked. */
const RUNTIME = [
  /(^|\/)atlas\.config\.json$/,
  /^data\/(public|inbox|demo|snapshots|export)(\/|$)/,
  /^data\/[^/]*\.duckdb/,
  /^data\/(secret|signing-key\.pem)$/,
  /^test\/e2e\/\.artifacts/,
];

/** The real public data beside the checkout (run-time input, read by tests and benchmarks). */
const REAL_DATA = /^(\.\.\/)+shared\/realdata(\/|$)/;

const CODE = /\.(ts|mts|cts|mjs|cjs|js)$/;

/** One file seen two ways, line by line, everything else blanked out so line numbers stay. */
export interface Views {
  /** Comments of code, `--` comments of SQL, `#` comments of shell scripts, `//` lines of JSONC, Markdown outside fenced code: where paths are named. */
  prose: string[];
  /** The prose plus the string literals of code; every line of other files: where citations are looked for. */
  text: string[];
}

/**
 * The views of one file. Code files are read through the TypeScript syntax tree, so a `//` inside
 * a string is not a comment and a variable named `spec` is not text.
 */
export function viewsOf(file: string, source: string): Views {
  const lines = source.split('\n');
  if (CODE.test(file)) {
    const { comments, strings } = codeRanges(file, source);
    return { prose: mask(source, comments), text: mask(source, [...comments, ...strings]) };
  }
  if (file.endsWith('.md')) {
    let fenced = false;
    const prose = lines.map((l) => {
      if (/^\s*```/.test(l)) {
        fenced = !fenced;
        return '';
      }
      return fenced ? '' : l;
    });
    return { prose, text: lines };
  }
  if (file.endsWith('.sql')) return { prose: lines.map((l) => after(l, '--')), text: lines };
  if (file.endsWith('.jsonc')) return { prose: lines.map((l) => (l.trimStart().startsWith('//') ? l : '')), text: lines };
  if (file.startsWith('.ci/') || file.endsWith('.sh')) return { prose: lines.map((l) => after(l, '#')), text: lines };
  return { prose: lines.map(() => ''), text: lines };
}

const after = (line: string, marker: string): string => {
  const i = line.indexOf(marker);
  return i < 0 ? '' : ' '.repeat(i) + line.slice(i);
};

type Range = readonly [pos: number, end: number];

function codeRanges(file: string, source: string): { comments: Range[]; strings: Range[] } {
  const kind = /\.(mjs|cjs|js)$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, kind);
  const comments = new Map<number, number>();
  const strings: Range[] = [];
  const collect = (list: ts.CommentRange[] | undefined) => {
    for (const r of list ?? []) comments.set(r.pos, r.end);
  };
  const visit = (node: ts.Node): void => {
    collect(ts.getLeadingCommentRanges(source, node.getFullStart()));
    collect(ts.getTrailingCommentRanges(source, node.getEnd()));
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) strings.push([node.getStart(sf), node.getEnd()]);
    for (const child of node.getChildren(sf)) visit(child);
  };
  visit(sf);
  return { comments: [...comments], strings };
}

function mask(source: string, ranges: readonly Range[]): string[] {
  const out = source.replace(/[^\n]/g, ' ').split('');
  for (const [pos, end] of ranges) for (let i = pos; i < end; i++) if (source[i] !== '\n') out[i] = source[i]!;
  return out.join('').split('\n');
}

/** Globs and placeholders (`*.ts`, `<generation>`, `{id}`, `NNN_name.sql`, `YYYY-MM-DD`) name no one file. */
const PLACEHOLDER = /[*<>{}$]|NNN|YYYY/;

/** Trailing punctuation a sentence puts after a path. */
const trimPath = (p: string) => p.replace(/[.,;:)'"`]+$/, '');

/**
 * Paths named in one line of prose: Markdown link targets, `./` and `../` paths (resolved against
 * the file's folder) and paths from a top-level folder (resolved against the project root). Globs,
 * placeholders and URLs are not paths.
 */
export function pathsIn(file: string, prose: string): { named: string; resolved: string }[] {
  const out: { named: string; resolved: string }[] = [];
  const dir = posix.dirname(file);
  const add = (named: string, base: string, next: string) => {
    const p = trimPath(named.replace(/#.*$/, ''));
    if (!p || PLACEHOLDER.test(p) || /[*<{$]/.test(next)) return;
    // `pipeline/site/serve`: a list of top-level folders, not a path.
    if (!/\.\w+$/.test(p) && p.split('/').every((s) => ROOTS.includes(s))) return;
    const resolved = posix.normalize(posix.join(base, p)).replace(/\/$/, '');
    if (!out.some((o) => o.named === p)) out.push({ named: p, resolved });
  };
  for (const m of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = m[1]!;
    if (/^[a-z][a-z0-9+.-]*:|^#|^\//i.test(target)) continue;
    add(target, dir, '');
  }
  for (const m of prose.matchAll(/(?<![\w./@:'"-])(\.\.?\/[\w./-]+)/g)) add(m[1]!, dir, prose[m.index + m[0].length] ?? '');
  const root = new RegExp(`(?<![\\w./@:~-])((?:${ROOTS.map((r) => r.replace('.', '\\.')).join('|')})/[\\w./-]*[\\w/])`, 'g');
  for (const m of prose.matchAll(root)) add(m[1]!, '.', prose[m.index + m[0].length] ?? '');
  return out;
}

/** Every finding in one file. */
export function checkReferences(file: string, source: string, tree: Tree): Finding[] {
  const out: Finding[] = [];
  const lines = source.split('\n');
  const { prose, text } = viewsOf(file, source);
  lines.forEach((_, i) => {
    const line = i + 1;
    for (const c of OUTSIDE_CITATIONS) {
      const m = c.re.exec(text[i] ?? '');
      if (m) out.push({ kind: 'outside-document', file, line, found: m[0], says: c.name });
    }
    for (const p of pathsIn(file, prose[i] ?? '')) {
      if (REAL_DATA.test(p.named)) continue;
      if (p.resolved.startsWith('..')) {
        out.push({ kind: 'missing-path', file, line, found: p.named, says: 'points outside the repository' });
        continue;
      }
      if (RUNTIME.some((r) => r.test(p.resolved)) || tree.has(p.resolved)) continue;
      out.push({ kind: 'missing-path', file, line, found: p.named, says: `no such file or folder in the repository (${p.resolved})` });
    }
  });
  return out;
}

/** The numbers of the Decisions list in docs/design.md (`1. **…**` lines under `## Decisions`). */
export function decisionNumbers(design: string): number[] {
  const section = design.split(/^## /m).find((s) => s.startsWith('Decisions')) ?? '';
  return [...section.matchAll(/^(\d+)\. \*\*/gm)].map((m) => Number(m[1]));
}

/** Citations `docs/design.md, decision N` whose N is not one of the Decisions (the list was renumbered once). */
export function checkDecisions(file: string, source: string, decisions: readonly number[]): Finding[] {
  const out: Finding[] = [];
  source.split('\n').forEach((text, i) => {
    for (const m of text.matchAll(/docs\/design\.md,?\s+decisions?\s+(\d+)/gi))
      if (!decisions.includes(Number(m[1])))
        out.push({ kind: 'missing-path', file, line: i + 1, found: m[0], says: `docs/design.md has no decision ${m[1]}` });
  });
  return out;
}

export const describeFinding = (f: Finding): string => `${f.file}:${f.line}: ${f.found} — ${f.says}`;
