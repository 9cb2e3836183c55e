/**
 * Untrusted text (docs/design.md, decision 6): registry names, descriptions and tags are third-party data.
 * One sanitizer: control and bidi characters removed, whitespace collapsed, length capped.
 * The result is stored and shown as data; it is never interpreted (HTML is escaped where rendered).
 */
// C0/C1 controls, bidi embeddings/overrides/isolates, zero-width and BOM, line/paragraph separators.
const STRIP_RE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2060-\u206F\uFEFF\u2028\u2029]/g;

// C0 controls other than tab, line feed and carriage return, and DEL: never meaningful in stored text.
const CONTROL_RE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

/** Multi-line untrusted text (documentation pages) kept as lines: only the control characters go (NUL first of all). */
export const stripControls = (s: string): string => s.replace(CONTROL_RE, '');

export const TEXT_LIMITS = { name: 120, description: 500, tag: 32, tags: 20, operator: 120 } as const;

/** Input past maxLength * PRE_CUT code units is cut before any pass over it (a megabyte description costs no megabyte copies). */
const PRE_CUT = 4;

export function sanitizeText(value: unknown, maxLength: number): string | null {
  if (typeof value !== 'string') return null;
  let input = value;
  const cutEarly = input.length > maxLength * PRE_CUT + 64;
  if (cutEarly) {
    input = input.slice(0, maxLength * PRE_CUT + 64);
    const last = input.charCodeAt(input.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) input = input.slice(0, -1);
  }
  let s = input.normalize('NFC').replace(STRIP_RE, '').replace(/\s+/g, ' ').trim();
  // A pre-cut value always ends in the ellipsis, even when stripping left it short.
  if (s.length > maxLength || (cutEarly && s.length > 0)) {
    // Do not cut a surrogate pair in half. maxLength - 1 code points fit in 2 * maxLength code
    // units, so only that prefix is split (a megabyte description costs no megabyte array).
    const cut = Array.from(s.slice(0, 2 * maxLength))
      .slice(0, maxLength - 1)
      .join('');
    s = `${cut}…`;
  }
  return s.length ? s : null;
}

/** Registry tags (docs/api.md, ServiceSummary `tags`) reduced to lowercase letters, digits and hyphens; anything else dropped. */
export function normalizeTags(values: unknown): string[] {
  if (!Array.isArray(values)) return [];
  const out = new Set<string>();
  for (const v of values) {
    if (typeof v !== 'string') continue;
    const t = v
      .toLowerCase()
      .trim()
      .replace(/[\s_]+/g, '-')
      .replace(/[^a-z0-9-]/g, '')
      .replace(/-+/g, '-')
      .replace(/^-|-$/g, '');
    if (t.length >= 1 && t.length <= TEXT_LIMITS.tag) out.add(t);
    if (out.size >= TEXT_LIMITS.tags) break;
  }
  return [...out];
}
