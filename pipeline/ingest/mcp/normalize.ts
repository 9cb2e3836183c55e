import { PASS_RULE_OF_KIND } from '../../../site/contract/common.ts';
import { normalizeTags, sanitizeText, TEXT_LIMITS } from '../../core/sanitize.ts';
import type { DiscoveredRecord } from '../discovered.ts';
import { mcpCandidateId } from '../ids.ts';
import { sanitizeRaw } from '../raw.ts';
import { registryTime } from '../time.ts';
import { fillPlaceholders, httpHost, isTemplatedUrl } from '../url.ts';
import {
  McpOfficialMetaSchema,
  McpRemoteSchema,
  McpServerSchema,
  McpVariableSchema,
  OFFICIAL_META,
  type McpOfficialMeta,
  type McpServer,
} from './schema.ts';

/**
 * One registry entry → one discovered service per remote (key: server name + remote URL as
 * listed). Pure. Status `deleted` or `deprecated` → listed=false: the registry has withdrawn the
 * server, so it leaves the directory (criterion `listed`) while its row and past checks stay; a new
 * withdrawn server is never tracked (discovered.ts). `active` → listed. The status itself is kept in
 * mcp_status. `{variable}` placeholders are filled from the remote's variables (default, else value,
 * else the first choice); a remote with a placeholder left unfilled is skipped (`unfilled_placeholder`:
 * nobody can call the URL as listed), as is one that is not https (`not_https`), except plain http on
 * a host the operator maps in the probe's resolve map (a local test fleet, config probe.resolve).
 */
export interface McpEntry {
  server: McpServer;
  meta: McpOfficialMeta;
  raw: Record<string, unknown>;
}

export type McpSkipReason =
  | 'invalid_item'
  | 'no_remotes'
  | 'invalid_remote'
  | 'invalid_url'
  | 'duplicate_remote'
  | 'not_https'
  | 'unfilled_placeholder';

/**
 * Quirks of what was KEPT, counted in the run (`noted`), per remote: `http_url` (plain http:// on a
 * host of the resolve map), `templated_url` (a templated path such as `:id`) and `remote_headers` (the
 * remote declares headers, usually a key the caller must send). Withdrawn servers are counted apart
 * (the run's `deleted` and `deprecated`, and `withdrawn_untracked` among the skips).
 */
export type McpQuirk = 'http_url' | 'templated_url' | 'remote_headers';

const BAD_URL_CHARS = /[\s\u0000-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2060-\u206F\uFEFF]/;
const MAX_URL = 2048;

/** Accept the current shape `{ server, _meta }` and the older flat one (server fields at the top). */
export function parseMcpEntry(raw: Record<string, unknown>): McpEntry | null {
  const serverRaw = raw.server && typeof raw.server === 'object' ? raw.server : raw;
  const server = McpServerSchema.safeParse(serverRaw);
  if (!server.success) return null;
  const metaHolder = (raw._meta ?? (serverRaw as Record<string, unknown>)._meta) as Record<string, unknown> | undefined;
  const metaRaw = metaHolder && typeof metaHolder === 'object' ? metaHolder[OFFICIAL_META] : undefined;
  const meta = McpOfficialMetaSchema.safeParse(metaRaw ?? {});
  const status = meta.success ? meta.data.status : undefined;
  const legacyStatus = typeof server.data.status === 'string' ? server.data.status : undefined;
  return { server: server.data, meta: { ...(meta.success ? meta.data : {}), status: status ?? legacyStatus ?? null }, raw };
}

export function mcpStatus(meta: McpOfficialMeta): string {
  const s = sanitizeText(meta.status, 20)?.toLowerCase();
  return s && /^[a-z_-]+$/.test(s) ? s : 'active';
}

function variableValue(v: unknown): string | undefined {
  const r = McpVariableSchema.safeParse(v);
  if (!r.success) return undefined;
  for (const c of [r.data.default, r.data.value, r.data.choices?.[0]]) {
    if (typeof c === 'string' && c.length > 0) return c;
    if (typeof c === 'number' && Number.isFinite(c)) return String(c);
  }
  return undefined;
}

/** Fill `{name}` placeholders; values are percent-encoded (they are untrusted text). */
export function fillRemoteUrl(
  template: string,
  variables: Record<string, unknown> | null | undefined,
): { url: string; templated: boolean } {
  const values = new Map<string, string>();
  for (const [k, v] of Object.entries(variables ?? {})) {
    const val = variableValue(v);
    if (val !== undefined) values.set(k, encodeURIComponent(val));
  }
  const filled = /\{[^{}]*\}/.test(template) ? fillPlaceholders(template, values) : template;
  if (filled !== null && httpHost(filled)) return { url: filled, templated: isTemplatedUrl(filled) };
  return { url: template, templated: true };
}

/** Host of a URL, or — for a template whose host holds a placeholder — the raw authority text. */
function hostOf(url: string): string | null {
  const h = httpHost(url);
  if (h) return h;
  const m = /^https?:\/\/(?:[^@/?#]*@)?([^/?#:]+)/i.exec(url);
  return m ? sanitizeText(m[1]!.toLowerCase(), 253) : null;
}

export interface McpNormalizeOptions {
  /** Hosts where a plain-http remote is accepted (the probe's resolve map); none by default. */
  plainHttpHost?: (host: string) => boolean;
}

const UNFILLED = /\{[^{}]*\}|%7B[^/?#]*?%7D/i;

export function normalizeMcpEntry(
  entry: McpEntry,
  secret: string,
  opts: McpNormalizeOptions = {},
): { records: DiscoveredRecord[]; skipped: Partial<Record<McpSkipReason, number>>; noted: Partial<Record<McpQuirk, number>> } {
  const { server, meta } = entry;
  const skipped: Partial<Record<McpSkipReason, number>> = {};
  const noted: Partial<Record<McpQuirk, number>> = {};
  const skip = (r: McpSkipReason) => (skipped[r] = (skipped[r] ?? 0) + 1);
  const note = (q: McpQuirk) => (noted[q] = (noted[q] ?? 0) + 1);
  const remotes = server.remotes ?? [];
  if (remotes.length === 0) {
    skip('no_remotes');
    return { records: [], skipped, noted };
  }
  const status = mcpStatus(meta);
  const serverName = sanitizeText(server.name, 200) ?? server.name.slice(0, 200);
  const displayName = sanitizeText(server.title, TEXT_LIMITS.name) ?? sanitizeText(server.name, TEXT_LIMITS.name);
  const description = sanitizeText(server.description, TEXT_LIMITS.description);
  const raw = sanitizeRaw(entry.raw, secret);
  const seen = new Set<string>();
  const records: DiscoveredRecord[] = [];
  for (const r of remotes) {
    const remote = McpRemoteSchema.safeParse(r);
    if (!remote.success) {
      skip('invalid_remote');
      continue;
    }
    const listedUrl = remote.data.url.trim();
    if (listedUrl.length > MAX_URL || BAD_URL_CHARS.test(listedUrl) || !/^https?:\/\//i.test(listedUrl)) {
      skip('invalid_url');
      continue;
    }
    const { url, templated } = fillRemoteUrl(listedUrl, remote.data.variables);
    const host = hostOf(url);
    if (!host) {
      skip('invalid_url');
      continue;
    }
    if (UNFILLED.test(url)) {
      skip('unfilled_placeholder');
      continue;
    }
    if (!/^https:/i.test(url) && !(opts.plainHttpHost?.(host) ?? false)) {
      skip('not_https');
      continue;
    }
    const id = mcpCandidateId(server.name, listedUrl);
    if (seen.has(id)) {
      skip('duplicate_remote');
      continue;
    }
    seen.add(id);
    if (/^http:/i.test(url)) note('http_url');
    if (templated) note('templated_url');
    if (
      remote.data.headers !== undefined &&
      remote.data.headers !== null &&
      !(Array.isArray(remote.data.headers) && remote.data.headers.length === 0)
    )
      note('remote_headers');
    records.push({
      id,
      type: 'mcp_server',
      protocol: 'mcp',
      pass_rule: PASS_RULE_OF_KIND.mcp,
      name: displayName ?? host,
      host,
      url,
      method: 'GET',
      templated_url: templated,
      tags: normalizeTags([]),
      description,
      registry_key: `${serverName}|${listedUrl}`,
      x402_version: null,
      registry_updated_at: registryTime(meta.updatedAt) ?? registryTime(meta.publishedAt),
      registry_calls_30d: null,
      registry_payers_30d: null,
      registry_last_called_at: null,
      registry_price_usd: null,
      registry_max_price_usd: null,
      registry_networks: [],
      mcp_status: status,
      mcp_server_name: serverName,
      remote_type: sanitizeText(remote.data.type, 40),
      listed: status !== 'deleted' && status !== 'deprecated',
      registry_raw: raw,
    });
  }
  return { records, skipped, noted };
}
