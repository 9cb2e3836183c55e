import { AtlasError, formatIssues } from '../../core/errors.ts';
import { isRecord, withQuery, type JsonFetcher } from '../source.ts';
import { X402DumpSchema, X402PageSchema, type X402Dump, type X402Page } from './schema.ts';
import { x402ItemKind, x402VersionOf } from './normalize.ts';

/**
 * Reading a whole x402 registry: pages → unique raw items. Paging (docs/notes/ingest.md):
 * - request `limit=L&offset=O` (no `type` filter unless the configured URL has one: `http` and `mcp`
 *   items are both read); step the offset by the limit the page ECHOES (registries round and cap
 *   it), not by the number of rows received — so a short page mid-run is survived;
 * - a page that names a next cursor (`pagination.nextCursor`, or `nextCursor`) switches to cursor
 *   paging: the next request is `limit=L&cursor=C`; no next cursor ends the sweep (complete), a
 *   cursor seen before ends it incomplete;
 * - stop on an empty page, or when the next offset reaches `total`;
 * - when no `total` is given, a page that adds no new URL means the registry is repeating rows
 *   past the end: stop;
 * - skip (and count) items whose `type` is neither `http` nor `mcp` BEFORE de-duplicating, so an
 *   `object` row that repeats an http resource's URL can never stand in for it;
 * - de-duplicate by kind and resource URL (first occurrence wins; later ones are counted as
 *   duplicates; several `mcp` items of one server, one per tool, are one server);
 * - stop after `maxPages`; such a sweep is INCOMPLETE (nothing is delisted on its evidence).
 * Any fetch or shape failure throws: the caller stores nothing from a failed source.
 */
export interface SweptItem {
  raw: Record<string, unknown>;
  pageVersion: number | null;
}

export interface X402Sweep {
  items: SweptItem[];
  pages: number;
  rows: number;
  duplicates: number;
  /** Rows whose `type` is neither `http` nor `mcp` (e.g. `object`, `facilitator`): skipped as `unknown_type`. */
  unknown_type: number;
  /** Rows of a bare item list that are not JSON objects. */
  invalid_item: number;
  complete: boolean;
}

export interface X402SweepOptions {
  pageSize: number;
  maxPages: number;
}

export const DEFAULT_X402_SWEEP: X402SweepOptions = { pageSize: 100, maxPages: 1000 };

export function parseX402Page(doc: unknown, where: string): X402Page {
  const r = X402PageSchema.safeParse(doc);
  if (!r.success)
    throw new AtlasError('source_failed', `${where}: not a discovery/resources page (${formatIssues(r.error.issues.slice(0, 5))})`);
  return r.data;
}

function urlKey(raw: Record<string, unknown>): string | null {
  const r = raw.resource;
  const u = typeof r === 'string' ? r : r && typeof r === 'object' ? (r as Record<string, unknown>).url : undefined;
  return typeof u === 'string' ? u.trim() : null;
}

export function parseX402Dump(doc: unknown, where: string): X402Dump {
  const r = X402DumpSchema.safeParse(doc);
  if (!r.success) throw new AtlasError('source_failed', `${where}: not a registry dump (${formatIssues(r.error.issues.slice(0, 5))})`);
  return r.data;
}

class Collector {
  readonly byUrl = new Map<string, SweptItem>();
  readonly unkeyed: SweptItem[] = [];
  readonly otherUrls = new Set<string>();
  rows = 0;
  duplicates = 0;
  unknownType = 0;
  invalid = 0;
  /** Adds a page's items; returns how many were new. */
  add(page: X402Page): number {
    return this.addItems(page.items, x402VersionOf(page.x402Version));
  }
  addItems(items: readonly unknown[], pageVersion: number | null): number {
    let fresh = 0;
    for (const raw of items) {
      this.rows++;
      if (!isRecord(raw)) {
        this.invalid++;
        continue;
      }
      const kind = x402ItemKind(raw.type);
      if (kind === 'unknown') {
        this.unknownType++;
        // Still news for the "no new URL: the registry is repeating itself" stop rule.
        const key = urlKey(raw);
        if (key !== null && !this.otherUrls.has(key)) {
          this.otherUrls.add(key);
          fresh++;
        }
        continue;
      }
      const url = urlKey(raw);
      const key = url === null ? null : `${kind}|${url}`;
      if (key === null) {
        // Kept so the normalizer can count it as invalid; cannot be de-duplicated.
        this.unkeyed.push({ raw, pageVersion });
        fresh++;
        continue;
      }
      if (this.byUrl.has(key)) {
        this.duplicates++;
        continue;
      }
      this.byUrl.set(key, { raw, pageVersion });
      fresh++;
    }
    return fresh;
  }
  sweep(pages: number, complete: boolean): X402Sweep {
    return {
      items: [...this.byUrl.values(), ...this.unkeyed],
      pages,
      rows: this.rows,
      duplicates: this.duplicates,
      unknown_type: this.unknownType,
      invalid_item: this.invalid,
      complete,
    };
  }
}

/** A document that is a whole registry at once (a dump or a bare item list) rather than one page of it. */
const isWholeRegistry = (doc: unknown): boolean =>
  Array.isArray(doc) || (isRecord(doc) && !Array.isArray(doc.items) && Array.isArray(doc.resources));

export async function sweepX402Url(fetchJson: JsonFetcher, base: string, opts: X402SweepOptions = DEFAULT_X402_SWEEP): Promise<X402Sweep> {
  const c = new Collector();
  let offset = 0;
  let cursor: string | null = null;
  const cursors = new Set<string>();
  let pages = 0;
  let complete = false;
  while (pages < opts.maxPages) {
    const url = withQuery(base, cursor === null ? { limit: opts.pageSize, offset } : { limit: opts.pageSize, cursor });
    const doc = await fetchJson(url);
    // A mirror that serves the whole registry as one file answers every offset with all of it: read it once.
    if (pages === 0 && isWholeRegistry(doc)) return sweepX402Document(doc, base);
    const page = parseX402Page(doc, cursor === null ? `page at offset ${offset}` : `page at cursor ${cursor}`);
    pages++;
    if (page.items.length === 0) {
      complete = true;
      break;
    }
    const fresh = c.add(page);
    const next = page.pagination?.nextCursor ?? page.nextCursor ?? null;
    if (next !== null && next !== '') {
      // Cursor paging: the catalog says where the next page starts; a repeated cursor is a loop.
      if (cursors.has(next)) break;
      cursors.add(next);
      cursor = next;
      continue;
    }
    if (cursor !== null) {
      complete = true;
      break;
    }
    const total = page.pagination?.total ?? null;
    const echoed = page.pagination?.limit;
    const step = echoed && echoed > 0 ? echoed : opts.pageSize;
    offset += step;
    if (total !== null && offset >= total) {
      complete = true;
      break;
    }
    if (total === null && fresh === 0) {
      complete = true;
      break;
    }
  }
  return c.sweep(pages, complete);
}

/** A snapshot file is the whole registry as saved: every page in it, in order; complete by definition. */
export function sweepX402Pages(docs: readonly unknown[], origin: string): X402Sweep {
  const c = new Collector();
  for (const [i, doc] of docs.entries()) c.add(parseX402Page(doc, `${origin}: page ${i + 1}`));
  return c.sweep(docs.length, true);
}

/**
 * Any document a registry or its mirrors serve (docs/notes/ingest.md, "File and mirror forms"):
 * - one page `{ items, pagination? }`;
 * - a crawler's dump `{ resources: [...], partial? }` (incomplete when `partial: true`);
 * - an array (or JSON Lines) of pages or dumps: when any element is one, every element must be one
 *   (a malformed page among pages fails the source, naming it);
 * - otherwise an array (or JSON Lines) of bare items, read as one page. If no element is an object
 *   with a `resource`, it is not a registry: the source fails rather than delisting everything.
 * A top-level object that is neither a page nor a dump fails the source (a changed format must not
 * silently empty the index).
 */
export function sweepX402Document(doc: unknown, origin: string): X402Sweep {
  const c = new Collector();
  let pages = 0;
  let complete = true;
  const addWhole = (d: unknown, where: string): void => {
    if (isRecord(d) && !Array.isArray(d.items) && Array.isArray(d.resources)) {
      const dump = parseX402Dump(d, where);
      c.addItems(dump.resources, x402VersionOf(dump.x402Version));
      if (dump.partial === true) complete = false;
    } else c.add(parseX402Page(d, where));
    pages++;
  };
  const isWhole = (d: unknown) => isRecord(d) && (Array.isArray(d.items) || Array.isArray(d.resources));
  if (Array.isArray(doc)) {
    if (doc.some(isWhole)) for (const [i, d] of doc.entries()) addWhole(d, `${origin}: page ${i + 1}`);
    else if (doc.length > 0) {
      if (!doc.some((x) => isRecord(x) && x.resource !== undefined))
        throw new AtlasError('source_failed', `${origin}: not an x402 registry (no element is a page, a dump or an item with a resource)`);
      c.addItems(doc, null);
      pages++;
    }
  } else addWhole(doc, origin);
  return c.sweep(pages, complete);
}
