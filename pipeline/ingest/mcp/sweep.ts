import { AtlasError, formatIssues } from '../../core/errors.ts';
import { isRecord, withQuery, type JsonFetcher } from '../source.ts';
import { parseMcpEntry, type McpEntry } from './normalize.ts';
import { McpPageSchema, type McpPage } from './schema.ts';

/**
 * Reading the MCP registry: `GET …/v0.1/servers?limit=100&version=latest[&cursor=C][&updated_since=T]`
 * page by page, following `metadata.nextCursor` (or the older `next_cursor`) until there is none.
 * Requests are spaced by `delayMs` (the official registry asks for gentle polling). A repeated
 * cursor or the page cap ends the sweep as INCOMPLETE. Any fetch or shape failure throws.
 * Only the latest version of a server is read: an entry the registry flags `isLatest: false` is set
 * aside whatever else the page holds, and among the rest (flagged latest, or from an older payload
 * without the flag) the one flagged isLatest wins, else the one published last (`publishedAt`, else
 * `updatedAt`), whatever their order on the page; every entry set aside is counted as
 * `older_version`. A whole-registry dump lists every version of every server, so this is what picks
 * the current one from it.
 */
export interface McpSweepOptions {
  pageSize: number;
  maxPages: number;
  delayMs: number;
  /** RFC 3339 time: only entries changed since (incremental sync). */
  updatedSince?: string;
}

export const DEFAULT_MCP_SWEEP: McpSweepOptions = { pageSize: 100, maxPages: 500, delayMs: 250 };

export interface McpSweep {
  entries: McpEntry[];
  invalid_item: number;
  /** Entries set aside because another version of the same server was kept. */
  older_version: number;
  pages: number;
  rows: number;
  complete: boolean;
}

export function parseMcpPage(doc: unknown, where: string): McpPage {
  const r = McpPageSchema.safeParse(doc);
  if (!r.success) throw new AtlasError('source_failed', `${where}: not a /v0.1/servers page (${formatIssues(r.error.issues.slice(0, 5))})`);
  return r.data;
}

const nextCursorOf = (page: McpPage): string | null => page.metadata?.nextCursor || page.metadata?.next_cursor || null;

const publishedMs = (e: McpEntry): number => {
  const t = Date.parse(String(e.meta.publishedAt ?? e.meta.updatedAt ?? ''));
  return Number.isNaN(t) ? 0 : t;
};

/** Whether `e` replaces `prev` as the version kept for its server name (ties: the later row wins). */
function supersedes(e: McpEntry, prev: McpEntry): boolean {
  const a = e.meta.isLatest === true;
  const b = prev.meta.isLatest === true;
  if (a !== b) return a;
  return publishedMs(e) >= publishedMs(prev);
}

class Collector {
  readonly byName = new Map<string, McpEntry>();
  invalid = 0;
  rows = 0;
  add(page: McpPage): void {
    this.addEntries(page.servers);
  }
  addEntries(entries: readonly unknown[]): void {
    for (const raw of entries) {
      this.rows++;
      const e = isRecord(raw) ? parseMcpEntry(raw) : null;
      if (!e) {
        this.invalid++;
        continue;
      }
      if (e.meta.isLatest === false) continue; // an older version: counted in older_version
      const prev = this.byName.get(e.server.name);
      if (!prev || supersedes(e, prev)) this.byName.set(e.server.name, e);
    }
  }
  sweep(pages: number, complete: boolean): McpSweep {
    const entries = [...this.byName.values()];
    return {
      entries,
      invalid_item: this.invalid,
      older_version: this.rows - this.invalid - entries.length,
      pages,
      rows: this.rows,
      complete,
    };
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function sweepMcpUrl(fetchJson: JsonFetcher, base: string, opts: McpSweepOptions = DEFAULT_MCP_SWEEP): Promise<McpSweep> {
  const c = new Collector();
  const cursors = new Set<string>();
  let cursor: string | undefined;
  let pages = 0;
  let complete = false;
  while (pages < opts.maxPages) {
    if (pages > 0 && opts.delayMs > 0) await sleep(opts.delayMs);
    const url = withQuery(base, { limit: opts.pageSize, version: 'latest', cursor, updated_since: opts.updatedSince });
    const doc = await fetchJson(url);
    // A mirror serving the whole registry as one file (a bare array of entries): read it once.
    if (pages === 0 && Array.isArray(doc)) return sweepMcpDocument(doc, base);
    const page = parseMcpPage(doc, `page ${pages + 1}${cursor ? ` (cursor ${cursor.slice(0, 40)})` : ''}`);
    pages++;
    c.add(page);
    const next = nextCursorOf(page);
    if (!next || page.servers.length === 0) {
      complete = true;
      break;
    }
    if (cursors.has(next)) break; // the registry is going round in circles: stop, incomplete
    cursors.add(next);
    cursor = next;
  }
  return c.sweep(pages, complete);
}

/**
 * Any document the registry or its mirrors serve (docs/notes/ingest.md, "File and mirror forms"):
 * one page `{ servers, metadata }`; an array (or JSON Lines) of pages (when any element is a page,
 * every element must be one); or an array (or JSON Lines) of bare entries (`{ server, _meta }` or the
 * older flat form), e.g. a whole-registry dump listing every version of every server, read as one
 * page. An array none of whose elements is an entry with a server name is not a registry: the
 * source fails. A top-level object that is not a page fails the source.
 */
export function sweepMcpDocument(doc: unknown, origin: string): McpSweep {
  const c = new Collector();
  if (!Array.isArray(doc)) {
    c.add(parseMcpPage(doc, origin));
    return c.sweep(1, true);
  }
  if (doc.some((d) => isRecord(d) && Array.isArray(d.servers))) {
    for (const [i, d] of doc.entries()) c.add(parseMcpPage(d, `${origin}: page ${i + 1}`));
    return c.sweep(doc.length, true);
  }
  if (doc.length === 0) return c.sweep(0, true);
  if (!doc.some((x) => isRecord(x) && parseMcpEntry(x) !== null))
    throw new AtlasError('source_failed', `${origin}: not an MCP registry (no element is a page or an entry with a server name)`);
  c.addEntries(doc);
  return c.sweep(1, true);
}
