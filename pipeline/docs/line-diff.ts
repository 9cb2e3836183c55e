/**
 * A bounded line diff between two normalized texts.
 * Common leading and trailing lines are trimmed first; the middle is diffed with an LCS table when
 * it is small enough (MAX_LCS_CELLS), otherwise as multisets (lines only in the old text are removed,
 * only in the new one added), which keeps time and memory bounded on pages that changed wholesale.
 * `added`/`removed` hold every changed line (for the review rule); `entries` is the first
 * `maxEntries` of them in document order, each line capped at `maxLineChars`, for storage and display.
 *
 * Hand-written on purpose, after measuring jsdiff 9 (`diffArrays`, Myers) as a replacement: on a page
 * with every other line changed this LCS is several times faster, and under the same work cap
 * jsdiff gives up earlier and falls back to the multiset diff; on a long page with few changes the
 * two are even (figures: docs/notes/reports-docs-mcp.md, Performance).
 */
export interface DiffEntry {
  op: '+' | '-';
  line: string;
}

export interface LineDiff {
  added: string[];
  removed: string[];
  entries: DiffEntry[];
  truncated: boolean;
}

export interface DiffLimits {
  maxEntries: number;
  maxLineChars: number;
  maxLcsCells: number;
}

export const DIFF_LIMITS: Readonly<DiffLimits> = { maxEntries: 50, maxLineChars: 300, maxLcsCells: 4_000_000 };

function lcsOps(a: string[], b: string[]): DiffEntry[] {
  const n = a.length;
  const m = b.length;
  // dp[i][j] = LCS length of a[i..] and b[j..], flattened.
  const w = m + 1;
  const dp = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      dp[i * w + j] = a[i] === b[j] ? dp[(i + 1) * w + j + 1]! + 1 : Math.max(dp[(i + 1) * w + j]!, dp[i * w + j + 1]!);
    }
  }
  const out: DiffEntry[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      i++;
      j++;
    } else if (dp[(i + 1) * w + j]! >= dp[i * w + j + 1]!) out.push({ op: '-', line: a[i++]! });
    else out.push({ op: '+', line: b[j++]! });
  }
  while (i < n) out.push({ op: '-', line: a[i++]! });
  while (j < m) out.push({ op: '+', line: b[j++]! });
  return out;
}

function multisetOps(a: string[], b: string[]): DiffEntry[] {
  const count = new Map<string, number>();
  for (const l of b) count.set(l, (count.get(l) ?? 0) + 1);
  const removed: DiffEntry[] = [];
  for (const l of a) {
    const c = count.get(l) ?? 0;
    if (c > 0) count.set(l, c - 1);
    else removed.push({ op: '-', line: l });
  }
  const left = new Map<string, number>();
  for (const l of a) left.set(l, (left.get(l) ?? 0) + 1);
  const added: DiffEntry[] = [];
  for (const l of b) {
    const c = left.get(l) ?? 0;
    if (c > 0) left.set(l, c - 1);
    else added.push({ op: '+', line: l });
  }
  return [...removed, ...added];
}

const split = (t: string): string[] => (t.length ? t.split('\n') : []);

export function lineDiff(before: string, after: string, limits: Partial<DiffLimits> = {}): LineDiff {
  const { maxEntries, maxLineChars, maxLcsCells } = { ...DIFF_LIMITS, ...limits };
  const a = split(before);
  const b = split(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const ops = (midA.length + 1) * (midB.length + 1) <= maxLcsCells ? lcsOps(midA, midB) : multisetOps(midA, midB);
  const cap = (l: string) => (l.length > maxLineChars ? `${l.slice(0, maxLineChars - 1)}…` : l);
  return {
    added: ops.filter((o) => o.op === '+').map((o) => o.line),
    removed: ops.filter((o) => o.op === '-').map((o) => o.line),
    entries: ops.slice(0, maxEntries).map((o) => ({ op: o.op, line: cap(o.line) })),
    truncated: ops.length > maxEntries,
  };
}
