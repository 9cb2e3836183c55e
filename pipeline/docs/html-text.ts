/**
 * HTML → plain text for change detection (not for display). Scripts, styles, templates, noscript,
 * svg and head blocks and comments are dropped; block-level tags become line breaks; every other tag
 * is removed; entities are decoded; whitespace inside a line collapses to one space. Source
 * line-wrapping and indentation are insignificant in HTML, so they never show up as changes; line
 * breaks inside <pre> (code samples) are kept.
 *
 * A single left-to-right scan (indexOf and anchored patterns only), so a hostile or broken page —
 * thousands of unclosed `<script` or `<a`, a megabyte of unclosed nesting — costs linear time, never
 * a regex backtracking blow-up, and keeps no element stack.
 *
 * Hand-written on purpose, after measuring htmlparser2 12 as a replacement (same text on a realistic
 * page): ours is faster there, and far faster on deeply unclosed nesting (`<b>x` repeated) —
 * htmlparser2 keeps its open-element stack with Array.unshift, which is quadratic in nesting depth,
 * a cheap denial of service from any crawled page (figures: docs/notes/reports-docs-mcp.md,
 * Performance). Hostile inputs: test/pipeline/docs/html-text.test.ts; timing:
 * test/bench/html-text.ts.
 */
const DROP = new Set(['script', 'style', 'noscript', 'template', 'svg', 'head']);
const BLOCK = new Set(
  'address article aside blockquote br caption dd details dialog div dl dt fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section summary table tbody thead tfoot tr td th ul title body html'.split(
    ' ',
  ),
);
const TAG_NAME_RE = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)/y;

/**
 * Index of the `>` ending a start or end tag whose name ends at `from`, or -1. A quoted attribute
 * value (`href=">"`) may contain `>`, as browsers read it; one forward pass, no backtracking.
 */
function tagEnd(html: string, from: number): number {
  let afterEquals = false;
  for (let i = from; i < html.length; i++) {
    const c = html[i]!;
    if (c === '>') return i;
    if ((c === '"' || c === "'") && afterEquals) {
      const close = html.indexOf(c, i + 1);
      if (close < 0) return -1;
      i = close;
      afterEquals = false;
    } else if (c === '=') afterEquals = true;
    else if (c !== ' ' && c !== '\t' && c !== '\n' && c !== '\r' && c !== '\f') afterEquals = false;
  }
  return -1;
}

function stripTags(html: string): string {
  const out: string[] = [];
  const n = html.length;
  let inPre = false;
  const text = (t: string) => out.push(inPre ? t.replace(/[^\S\n]+/g, ' ') : t.replace(/\s+/g, ' '));
  let i = 0;
  while (i < n) {
    const lt = html.indexOf('<', i);
    if (lt < 0) {
      text(html.slice(i));
      break;
    }
    text(html.slice(i, lt));
    if (html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 4);
      out.push(' ');
      i = end < 0 ? n : end + 3;
      continue;
    }
    TAG_NAME_RE.lastIndex = lt;
    const m = TAG_NAME_RE.exec(html);
    const next = html[lt + 1];
    if (!m && next !== '!' && next !== '?') {
      out.push('<'); // a literal '<' in text
      i = lt + 1;
      continue;
    }
    const gt = m ? tagEnd(html, lt + m[0].length) : html.indexOf('>', lt);
    if (gt < 0) break; // a tag cut off at the end: drop the rest
    i = gt + 1;
    if (!m) {
      out.push(' '); // <!doctype …>, <?xml …?>
      continue;
    }
    const closing = m[1] === '/';
    const name = m[2]!.toLowerCase();
    if (!closing && DROP.has(name)) {
      const close = new RegExp(`</${name}\\s*>`, 'gi');
      close.lastIndex = i;
      const found = close.exec(html);
      i = found ? found.index + found[0].length : n;
      out.push(' ');
      continue;
    }
    if (name === 'pre') inPre = !closing;
    out.push(BLOCK.has(name) ? '\n' : ' ');
  }
  return out.join('');
}

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ensp: ' ',
  emsp: ' ',
  thinsp: ' ',
  mdash: '—',
  ndash: '–',
  hellip: '…',
  copy: '©',
  reg: '®',
  trade: '™',
  euro: '€',
  pound: '£',
  yen: '¥',
  cent: '¢',
  dollar: '$',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  laquo: '«',
  raquo: '»',
  bull: '•',
  middot: '·',
  times: '×',
  divide: '÷',
  deg: '°',
  plusmn: '±',
  larr: '←',
  rarr: '→',
  uarr: '↑',
  darr: '↓',
  sect: '§',
  para: '¶',
  colon: ':',
  comma: ',',
  period: '.',
  sol: '/',
  lpar: '(',
  rpar: ')',
  num: '#',
  percnt: '%',
  excl: '!',
  quest: '?',
};

/** Decode named (common set) and numeric character references; unknown names are left as written. */
export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z][a-zA-Z0-9]{1,31});/g, (m, ref: string) => {
    if (ref[0] === '#') {
      const cp = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return Number.isFinite(cp) && cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) ? String.fromCodePoint(cp) : m;
    }
    return NAMED[ref] ?? NAMED[ref.toLowerCase()] ?? m;
  });
}

/** Collapse whitespace within lines, trim them and drop empty lines. */
export function tidyLines(text: string): string {
  return text
    .split('\n')
    .map((l) => l.replace(/[\s\u00a0\u200b\ufeff]+/g, ' ').trim())
    .filter((l) => l.length > 0)
    .join('\n');
}

export function htmlToText(html: string): string {
  return tidyLines(decodeEntities(stripTags(html)));
}
