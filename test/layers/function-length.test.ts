import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * No god functions: in the folders of FOLDERS, every function, method and arrow function is at most
 * MAX_LINES lines long (from its first token to its last, comments inside included). A failure
 * names file:line and the length of each one over.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FOLDERS = ['pipeline/publish', 'serve/search'];
const MAX_LINES = 80;
const SOURCE = /\.(ts|mts|cts|mjs|cjs|js)$/;

interface FunctionSpan {
  name: string;
  line: number;
  lines: number;
}

/** Every function-like node of a source text, with its first line (1-based) and length in lines. */
function functionSpans(fileName: string, text: string): FunctionSpan[] {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const out: FunctionSpan[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      const named = (node as { name?: ts.Node }).name;
      out.push({ name: named ? named.getText(sf) : '(anonymous)', line: first + 1, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** `file:line name (n lines)` for every function of `text` longer than `max` lines. */
function overLong(file: string, text: string, max: number): string[] {
  return functionSpans(file, text)
    .filter((f) => f.lines > max)
    .map((f) => `${file}:${f.line} ${f.name} (${f.lines} lines)`);
}

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && SOURCE.test(e.name))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort();
}

describe('function length', () => {
  it.each(FOLDERS)(`no function in %s is over ${MAX_LINES} lines`, (folder) => {
    const files = sourceFiles(folder);
    expect(files.length).toBeGreaterThan(0);
    expect(files.flatMap((f) => overLong(f, readFileSync(join(ROOT, f), 'utf8'), MAX_LINES))).toEqual([]);
  });

  const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');
  it.each([
    { name: 'a declaration over the limit', text: `function big() {\n${body(5)}\n}\n`, over: ['x.ts:1 big (7 lines)'] },
    { name: 'a declaration at the limit', text: `function ok() {\n${body(4)}\n}\n`, over: [] },
    { name: 'an arrow function', text: `export const f = () => {\n${body(5)}\n};\n`, over: ['x.ts:1 (anonymous) (7 lines)'] },
    {
      name: 'a method, inside a class within the limit',
      text: `class C {\n  m() {\n${body(5)}\n  }\n}\n`,
      over: ['x.ts:2 m (7 lines)'],
    },
  ])('catches $name', ({ text, over }) => {
    expect(overLong('x.ts', text, 6)).toEqual(over);
  });
});
