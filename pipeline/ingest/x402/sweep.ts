import { AtlasError, formatIssues } from '../../core/errors.ts';
import { withQuery, type JsonFetcher } from '../source.ts';
import { X402PageSchema, type X402Page } from './schema.ts';
import { x402VersionOf } from './normalize.ts';

/**
 * Reading a whole x402 registry: pages → unique raw items. Paging per docs/reference.md (Bazaar):
 * - request `type=http&limit=L&offset=O`; step the offset by the limit the page ECHOES (registries
 *   round and cap it), not by the number of rows received — so a short page mid-run is survived;
 * - stop on an empty page, or when the next offset reaches `total`;
 * - when no `total` is given, a page that adds no new URL means the registry is repeating rows
 *   past the end: stop;
 * - de-duplicate by resource URL (first occurrence wins);
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

class Collector {
  readonly byUrl = new Map<string, SweptItem>();
  readonly unkeyed: SweptItem[] = [];
  rows = 0;
  duplicates = 0;
  /** Adds a page's items; returns how many were new. */
  add(page: X402Page): number {
    const pageVersion = x402VersionOf(page.x402Version);
    let fresh = 0;
    for (const raw of page.items) {
      this.rows++;
      const key = urlKey(raw);
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
  items(): SweptItem[] {
    return [...this.byUrl.values(), ...this.unkeyed];
  }
}

export async function sweepX402Url(fetchJson: JsonFetcher, base: string, opts: X402SweepOptions = DEFAULT_X402_SWEEP): Promise<X402Sweep> {
  const c = new Collector();
  const hasType = new URL(base).searchParams.has('type');
  let offset = 0;
  let pages = 0;
  let complete = false;
  while (pages < opts.maxPages) {
    const url = withQuery(base, { type: hasType ? undefined : 'http', limit: opts.pageSize, offset });
    const page = parseX402Page(await fetchJson(url), `page at offset ${offset}`);
    pages++;
    if (page.items.length === 0) {
      complete = true;
      break;
    }
    const fresh = c.add(page);
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
  return { items: c.items(), pages, rows: c.rows, duplicates: c.duplicates, complete };
}

/** A snapshot file is the whole registry as saved: every page in it, in order; complete by definition. */
export function sweepX402Pages(docs: readonly unknown[], origin: string): X402Sweep {
  const c = new Collector();
  for (const [i, doc] of docs.entries()) c.add(parseX402Page(doc, `${origin}: page ${i + 1}`));
  return { items: c.items(), pages: docs.length, rows: c.rows, duplicates: c.duplicates, complete: true };
}
