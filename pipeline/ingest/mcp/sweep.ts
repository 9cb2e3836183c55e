import { AtlasError, formatIssues } from '../../core/errors.ts';
import { withQuery, type JsonFetcher } from '../source.ts';
import { parseMcpEntry, type McpEntry } from './normalize.ts';
import { McpPageSchema, type McpPage } from './schema.ts';

/**
 * Reading the MCP registry: `GET …/v0.1/servers?limit=100&version=latest[&cursor=C][&updated_since=T]`
 * page by page, following `metadata.nextCursor` (or the older `next_cursor`) until there is none.
 * Requests are spaced by `delayMs` (the official registry asks for gentle polling). A repeated
 * cursor or the page cap ends the sweep as INCOMPLETE. Any fetch or shape failure throws.
 * Entries are de-duplicated by server name: the one flagged isLatest wins, else the later update.
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

const updatedMs = (e: McpEntry): number => {
  const t = Date.parse(String(e.meta.updatedAt ?? e.meta.publishedAt ?? ''));
  return Number.isNaN(t) ? 0 : t;
};

class Collector {
  readonly byName = new Map<string, McpEntry>();
  invalid = 0;
  rows = 0;
  add(page: McpPage): void {
    for (const raw of page.servers) {
      this.rows++;
      const e = parseMcpEntry(raw);
      if (!e) {
        this.invalid++;
        continue;
      }
      const prev = this.byName.get(e.server.name);
      const better =
        !prev ||
        (e.meta.isLatest === true && prev.meta.isLatest !== true) ||
        (e.meta.isLatest === prev.meta.isLatest && updatedMs(e) >= updatedMs(prev));
      if (better) this.byName.set(e.server.name, e);
    }
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
    const page = parseMcpPage(await fetchJson(url), `page ${pages + 1}${cursor ? ` (cursor ${cursor.slice(0, 40)})` : ''}`);
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
  return { entries: [...c.byName.values()], invalid_item: c.invalid, pages, rows: c.rows, complete };
}

/** A snapshot file holds every page as saved: read them all in order; complete by definition. */
export function sweepMcpPages(docs: readonly unknown[], origin: string): McpSweep {
  const c = new Collector();
  for (const [i, doc] of docs.entries()) c.add(parseMcpPage(doc, `${origin}: page ${i + 1}`));
  return { entries: [...c.byName.values()], invalid_item: c.invalid, pages: docs.length, rows: c.rows, complete: true };
}
