import { DAY_MS, HOUR_MS } from '../core/clock.ts';
import { HOSTILE_MCP_DESCRIPTION, HOSTILE_MCP_ENDPOINT, HOSTILE_MCP_TITLE } from './hostile.ts';
import type { EndpointSpec } from './plan.ts';
import { FLEET_SUFFIX, urlOf, type FleetState } from './state.ts';

/**
 * The MCP registry (the official registry's `/v0.1/servers` format), generated from the fleet:
 * `GET /v0.1/servers?limit=&cursor=&version=latest&updated_since=` →
 * `{ servers: [{ server, _meta: { 'io.modelcontextprotocol.registry/official': {...} } }],
 *    metadata: { nextCursor?, count } }`.
 * - One entry per `serverName`; the `tools` server has two remotes (streamable-http and sse).
 * - `mcp-template`: remote URL `/{tenant}/mcp` with a `tenant` variable that has a default (`acme`);
 *   `mcp-template-unfilled`: `/{region}/mcp` whose variable has no default (the URL stays templated).
 * - `notes-mcp` also has an older version (0.9.0, isLatest false), hidden by `version=latest`.
 * - Delisted endpoints (setListed false, and `retired-mcp` from the start) are `deleted`. As in the
 *   official registry, deleted entries appear only with `updated_since` (or `include_deleted=true`).
 * - Lifecycle examples without a fleet endpoint behind them (LIFECYCLE), each of which Atlas's ingest
 *   sets aside with its own counted reason, so a demo run shows the counts: a `deprecated` server
 *   (listed, as the official registry lists deprecated servers), a `deleted` one (with `updated_since`
 *   or `include_deleted`), a server whose old version is served before its latest one even with
 *   `version=latest` (as mirrors that ignore the filter do), a remote whose host is a `{host}`
 *   placeholder without a default, and a plain-http remote on a host outside the fleet.
 * - Cursor: `<name>:<version>` of the last entry of the page (opaque to clients).
 */

const META = 'io.modelcontextprotocol.registry/official';
const DEFAULT_LIMIT = 30;
const MAX_LIMIT = 100;

interface Entry {
  name: string;
  version: string;
  isLatest: boolean;
  specs: EndpointSpec[];
}

function remoteOf(state: FleetState, spec: EndpointSpec): Record<string, unknown> {
  const base = `http://${spec.host}${FLEET_SUFFIX}:${state.port}`;
  if (spec.behaviour === 'mcp-template') {
    return {
      type: 'streamable-http',
      url: `${base}/{tenant}/mcp`,
      variables: { tenant: { description: 'Your tenant id', isRequired: true, default: 'acme' } },
    };
  }
  if (spec.behaviour === 'mcp-template-unfilled') {
    return {
      type: 'streamable-http',
      url: `${base}/{region}/mcp`,
      variables: { region: { description: 'Deployment region', isRequired: true } },
    };
  }
  return { type: spec.remoteType ?? 'streamable-http', url: urlOf(state, spec) };
}

/** Registry entries sorted by (name, version); built per request (cheap: MCP is a minority). */
function entries(state: FleetState): Entry[] {
  const byName = new Map<string, EndpointSpec[]>();
  for (const s of state.specs) {
    if (s.protocol !== 'mcp' || !s.serverName) continue;
    const list = byName.get(s.serverName);
    if (list) list.push(s);
    else byName.set(s.serverName, [s]);
  }
  const out: Entry[] = [];
  for (const [name, specs] of byName) {
    out.push({ name, version: '1.0.0', isLatest: true, specs });
    if (name === 'io.fleet/notes-mcp') out.push({ name, version: '0.9.0', isLatest: false, specs });
  }
  return out.sort((a, b) => (a.name === b.name ? a.version.localeCompare(b.version) : a.name < b.name ? -1 : 1));
}

function statusOf(state: FleetState, e: Entry): { status: 'active' | 'deleted'; changedAt: Date | null } {
  // A server is deleted when every one of its remotes is delisted.
  const times = e.specs.map((s) => state.unlisted.get(s.name));
  if (times.every((t) => t !== undefined)) return { status: 'deleted', changedAt: new Date(Math.max(...times.map((t) => t!.getTime()))) };
  const relisted = e.specs.map((s) => state.relisted.get(s.name)?.getTime() ?? 0);
  const r = Math.max(...relisted);
  return { status: 'active', changedAt: r > 0 ? new Date(r) : null };
}

interface LifecycleEntry {
  name: string;
  version: string;
  isLatest: boolean;
  status: 'active' | 'deprecated' | 'deleted';
  remote: (base: string) => Record<string, unknown>;
}

/** The registry lifecycle examples (see the head comment); `base` is a fleet origin. */
export const LIFECYCLE: readonly LifecycleEntry[] = [
  { name: 'io.fleet/lifecycle-deprecated', version: '1.0.0', isLatest: true, status: 'deprecated', remote: (b) => sse(`${b}/sse`) },
  { name: 'io.fleet/lifecycle-deleted', version: '1.0.0', isLatest: true, status: 'deleted', remote: (b) => sse(`${b}/sse`) },
  { name: 'io.fleet/lifecycle-versions', version: '1.0.0', isLatest: false, status: 'active', remote: (b) => sse(`${b}/v1/sse`) },
  { name: 'io.fleet/lifecycle-versions', version: '2.0.0', isLatest: true, status: 'deprecated', remote: (b) => sse(`${b}/v2/sse`) },
  {
    name: 'io.fleet/lifecycle-host-placeholder',
    version: '1.0.0',
    isLatest: true,
    status: 'active',
    remote: () => ({
      type: 'streamable-http',
      url: 'https://{host}/mcp',
      variables: { host: { description: 'Your deployment host', isRequired: true } },
    }),
  },
  {
    name: 'io.fleet/lifecycle-plain-http',
    version: '1.0.0',
    isLatest: true,
    status: 'active',
    remote: () => ({ type: 'streamable-http', url: 'http://plain-http-mcp.example.org/mcp' }),
  },
];

function sse(url: string): Record<string, unknown> {
  return { type: 'sse', url };
}

function lifecycleRow(state: FleetState, e: LifecycleEntry): Row {
  const published = new Date(state.epoch.getTime() - (e.isLatest ? 3 : 40) * DAY_MS);
  const meta: Meta = { status: e.status, statusChangedAt: published, publishedAt: published, updatedAt: published };
  const short = e.name.split('/')[1]!;
  const base = `http://${short}${FLEET_SUFFIX}:${state.port}`;
  return {
    key: `${e.name}:${e.version}`,
    meta,
    isLatest: e.isLatest,
    servedAsLatest: true,
    body: () => ({
      server: { name: e.name, description: `Fleet registry example ${short}`, version: e.version, remotes: [e.remote(base)] },
      _meta: { [META]: metaJson(meta, e.isLatest) },
    }),
  };
}

interface Row {
  key: string;
  meta: Meta;
  isLatest: boolean;
  /** Served under `version=latest` whatever isLatest says (the old-version example). */
  servedAsLatest: boolean;
  body: () => Record<string, unknown>;
}

function metaJson(meta: Meta, isLatest: boolean): Record<string, unknown> {
  return {
    status: meta.status,
    statusChangedAt: meta.statusChangedAt.toISOString(),
    publishedAt: meta.publishedAt.toISOString(),
    updatedAt: meta.updatedAt.toISOString(),
    isLatest,
  };
}

interface Meta {
  status: 'active' | 'deprecated' | 'deleted';
  statusChangedAt: Date;
  publishedAt: Date;
  updatedAt: Date;
}

/** Registry metadata of an entry (cheap; computed for every entry to filter before rendering). */
function metaOf(state: FleetState, e: Entry): Meta {
  const first = e.specs[0]!;
  const published = new Date(state.epoch.getTime() - (2 + (first.index % 20)) * DAY_MS - (e.isLatest ? 0 : 30 * DAY_MS));
  const st = statusOf(state, e);
  const updated = new Date(Math.max(published.getTime() + (first.index % 10) * HOUR_MS, st.changedAt?.getTime() ?? 0));
  return { status: st.status, statusChangedAt: st.changedAt ?? published, publishedAt: published, updatedAt: updated };
}

function render(state: FleetState, e: Entry, meta: Meta): Record<string, unknown> {
  const first = e.specs[0]!;
  const short = e.name.split('/')[1] ?? e.name;
  const server: Record<string, unknown> = {
    $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
    name: e.name,
    description: `Fleet MCP server ${short}`.slice(0, 100),
    version: e.version,
    remotes: e.specs.map((s) => remoteOf(state, s)),
  };
  if (first.index % 3 !== 2) server.title = short.replace(/-/g, ' ');
  if (first.index % 2 === 0) server.websiteUrl = `https://${short}.example.com`;
  if (first.name === HOSTILE_MCP_ENDPOINT) {
    server.description = HOSTILE_MCP_DESCRIPTION;
    server.title = HOSTILE_MCP_TITLE;
  }
  return { server, _meta: { [META]: metaJson(meta, e.isLatest) } };
}

export function mcpRegistryPage(state: FleetState, params: URLSearchParams): Record<string, unknown> {
  const limitRaw = Number.parseInt(params.get('limit') ?? '', 10);
  const limit = Number.isFinite(limitRaw) && limitRaw > 0 ? Math.min(limitRaw, MAX_LIMIT) : DEFAULT_LIMIT;
  const latestOnly = params.get('version') === 'latest';
  const sinceRaw = params.get('updated_since');
  const since = sinceRaw ? new Date(sinceRaw) : null;
  const includeDeleted = since !== null || params.get('include_deleted') === 'true';
  const cursor = params.get('cursor');

  const sinceMs = since && !Number.isNaN(since.getTime()) ? since.getTime() : null;
  const fleetRows: Row[] = entries(state).map((e) => {
    const meta = metaOf(state, e);
    return { key: `${e.name}:${e.version}`, meta, isLatest: e.isLatest, servedAsLatest: false, body: () => render(state, e, meta) };
  });
  const rows = [...fleetRows, ...LIFECYCLE.map((e) => lifecycleRow(state, e))]
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .filter((r) => !latestOnly || r.isLatest || r.servedAsLatest)
    .filter(({ meta }) => (includeDeleted || meta.status !== 'deleted') && (sinceMs === null || meta.updatedAt.getTime() >= sinceMs));
  let start = 0;
  if (cursor) {
    const i = rows.findIndex((r) => r.key === cursor);
    start = i >= 0 ? i + 1 : rows.findIndex((r) => r.key > cursor);
    if (start < 0) start = rows.length;
  }
  const page = rows.slice(start, start + limit);
  const metadata: Record<string, unknown> = { count: page.length };
  if (start + limit < rows.length && page.length > 0) metadata.nextCursor = page[page.length - 1]!.key;
  return { servers: page.map((r) => r.body()), metadata };
}
