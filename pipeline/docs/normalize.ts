import { createHash } from 'node:crypto';
import { nestingDeeperThan } from '../core/json-depth.ts';
import { stripControls } from '../core/sanitize.ts';
import { htmlToText, tidyLines } from './html-text.ts';

/**
 * Documentation content → normalized text, the unit of snapshots and diffs:
 * - HTML (by content type, or a body starting with `<!doctype` / `<html`): see html-text.ts;
 * - JSON (by content type, or a body that parses as an object or array): canonical form, keys sorted,
 *   two-space indentation, so a key reordering or reformatting is no change and a line diff names the
 *   value that changed;
 * - anything else: text with whitespace collapsed within lines and blank lines dropped.
 * The normalized text is capped (MAX_NORMALIZED_CHARS) so one page cannot bloat the database.
 * Untrusted bytes: invalid UTF-8 becomes U+FFFD, control characters (NUL, …) are dropped, and JSON
 * nested past MAX_JSON_DEPTH is read as text (canonical sorting recurses).
 */
export const MAX_NORMALIZED_CHARS = 512 * 1024;

export type ContentKind = 'html' | 'json' | 'text';

export function canonicalJson(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v !== null && typeof v === 'object') {
      return Object.fromEntries(
        Object.keys(v as Record<string, unknown>)
          .sort()
          .map((k) => [k, sort((v as Record<string, unknown>)[k])]),
      );
    }
    return v;
  };
  return JSON.stringify(sort(value), null, 2);
}

function tryJson(text: string): unknown {
  const t = text.trim();
  if (!(t.startsWith('{') || t.startsWith('[')) || nestingDeeperThan(t)) return undefined;
  try {
    return JSON.parse(t);
  } catch {
    return undefined;
  }
}

export function detectKind(text: string, contentType: string | null): ContentKind {
  const ct = (contentType ?? '').toLowerCase();
  if (ct.includes('json') && tryJson(text) !== undefined) return 'json';
  if (ct.includes('html') || ct.includes('xml')) return 'html';
  const head = text.trimStart().slice(0, 200).toLowerCase();
  if (head.startsWith('<!doctype html') || head.startsWith('<html')) return 'html';
  if (tryJson(text) !== undefined) return 'json';
  return 'text';
}

export function normalizeContent(body: Buffer | string, contentType: string | null): { kind: ContentKind; text: string; hash: string } {
  const raw = stripControls(typeof body === 'string' ? body : new TextDecoder('utf-8', { fatal: false }).decode(body))
    .replace(/^\ufeff/, '')
    .replace(/\r\n?/g, '\n');
  const kind = detectKind(raw, contentType);
  let text = kind === 'html' ? htmlToText(raw) : kind === 'json' ? canonicalJson(tryJson(raw)) : tidyLines(raw);
  if (text.length > MAX_NORMALIZED_CHARS) text = text.slice(0, MAX_NORMALIZED_CHARS);
  return { kind, text, hash: contentHash(text) };
}

export const contentHash = (text: string): string => `sha256:${createHash('sha256').update(text).digest('hex')}`;
