import { CheckKind, PASS_RULE_OF_KIND, ServiceType } from '../../../site/contract/common.ts';
import { sanitizeText, normalizeTags, TEXT_LIMITS } from '../../core/sanitize.ts';
import { networkKind, toCaip2 } from '../../../site/contract/networks.ts';
import { type LowestPrices, lowestPrices } from '../../x402/prices.ts';
import { declaredOfOffers, type DeclaredValues } from '../../x402/declared.ts';
import type { DiscoveredRecord } from '../discovered.ts';
import { x402CandidateId, x402McpCandidateId } from '../ids.ts';
import { sanitizeRaw } from '../raw.ts';
import { isRecord } from '../source.ts';
import { registryCount, registryTime } from '../time.ts';
import { httpHost, isTemplatedUrl, normalizeMethod } from '../url.ts';
import { softDropMetadata } from './metadata.ts';
import { X402AcceptSchema, X402ItemSchema, type X402Accept, type X402Item } from './schema.ts';

/**
 * One registry item → one discovered service record. Pure: no I/O, no clock; all text that reaches
 * the record went through the sanitizer. Returns a reason instead when the item is unusable.
 */
export type X402Normalized =
  | { ok: true; record: DiscoveredRecord; quirks: X402Quirk[]; dropped: string[] }
  | { ok: false; reason: X402SkipReason };

/**
 * Why an item became no service: `invalid_item` (no usable shape), `invalid_url` (no usable http(s)
 * resource URL), `unknown_type` (a `type` other than `http` or `mcp`), `mcp_no_endpoint` (a
 * `type: "mcp"` item whose resource is not an http(s) URL of the server, e.g. `mcp://tool/name`:
 * nothing Atlas can probe).
 */
export type X402SkipReason = 'invalid_item' | 'invalid_url' | 'unknown_type' | 'mcp_no_endpoint';

/** The item kinds of the discovery format: `http` (also when `type` is absent) and `mcp`; anything else is unknown. */
export function x402ItemKind(type: unknown): 'http' | 'mcp' | 'unknown' {
  if (type === undefined || type === null) return 'http';
  if (typeof type !== 'string') return 'unknown';
  const t = type.trim().toLowerCase();
  return t === 'http' ? 'http' : t === 'mcp' ? 'mcp' : 'unknown';
}

/**
 * Registry quirks of an item that is KEPT (it becomes a service) but that a reader of the run should
 * know about; each is counted once per item in the run's counts (`noted`):
 * - `http_url`: the resource is plain `http://`;
 * - `v1_network_name`: an offer names its network the v1 way (`base`), mapped to CAIP-2;
 * - `caip2_in_v1_body`: a version-1 item whose offers use CAIP-2 ids;
 * - `testnet_only`: every offer is on a known test network (it can list, but cannot pass the check);
 * - `unknown_network`: an offer on a network Atlas does not know (never counted as mainnet);
 * - `empty_amount` / `non_numeric_amount`: an offer whose amount is missing or empty / not plain
 *   digits (such an offer sets no dollar price);
 * - `caip19_asset`: an offer names its asset as a CAIP-19 id (`eip155:8453/erc20:0x…`); its address
 *   part is used for the price;
 * - `invalid_accept`: an accepts entry without a network (ignored for price and networks);
 * - `no_accepts`: no usable accepts entry at all;
 * - `method_from_output_schema`: the method came from v1 `accepts[].outputSchema.input.method`;
 * - `method_defaulted`: no method anywhere, so GET;
 * - `dropped_metadata`: invalid optional metadata fields were dropped, the resource kept (metadata.ts);
 * - `mcp_item`: a `type: "mcp"` item, kept as the MCP server it names (rule mcp-reach/3).
 */
export type X402Quirk =
  | 'http_url'
  | 'v1_network_name'
  | 'caip2_in_v1_body'
  | 'testnet_only'
  | 'unknown_network'
  | 'empty_amount'
  | 'non_numeric_amount'
  | 'caip19_asset'
  | 'invalid_accept'
  | 'no_accepts'
  | 'method_from_output_schema'
  | 'method_defaulted'
  | 'dropped_metadata'
  | 'mcp_item';

const MAX_URL = 2048;
// A resource URL with whitespace, controls or bidi characters is not a URL we will schedule.
const BAD_URL_CHARS = /[\s\u0000-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2060-\u206F\uFEFF]/;

const get = (v: unknown, ...path: string[]): unknown => {
  let cur = v;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[p];
  }
  return cur;
};

const versionOf = (v: unknown): number | null => {
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 && n < 100 ? n : null;
};

function parseAccepts(raw: readonly unknown[] | null | undefined): X402Accept[] {
  const out: X402Accept[] = [];
  for (const a of raw ?? []) {
    const r = X402AcceptSchema.safeParse(a);
    if (r.success) out.push(r.data);
  }
  return out;
}

function methodWithSource(
  item: X402Item,
  accepts: readonly X402Accept[],
): { method: string; from: 'extension' | 'output_schema' | 'default' } {
  const v2 = normalizeMethod(get(item.extensions, 'bazaar', 'info', 'input', 'method'));
  if (v2) return { method: v2, from: 'extension' };
  for (const a of accepts) {
    const v1 = normalizeMethod(get(a.outputSchema, 'input', 'method'));
    if (v1) return { method: v1, from: 'output_schema' };
  }
  return { method: 'GET', from: 'default' };
}

const CAIP2 = /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,64}$/;

function quirksOf(
  url: string,
  version: number | null,
  rawAccepts: number,
  accepts: readonly X402Accept[],
  methodFrom: string,
): X402Quirk[] {
  const q = new Set<X402Quirk>();
  if (/^http:/i.test(url)) q.add('http_url');
  if (accepts.length < rawAccepts) q.add('invalid_accept');
  if (accepts.length === 0) q.add('no_accepts');
  const kinds = accepts.map((a) => networkKind(a.network));
  if (accepts.length > 0 && kinds.every((k) => k === 'testnet')) q.add('testnet_only');
  if (kinds.includes('unknown')) q.add('unknown_network');
  for (const a of accepts) {
    const n = a.network.trim();
    if (CAIP2.test(n)) {
      if (version === 1) q.add('caip2_in_v1_body');
    } else q.add('v1_network_name');
    if (a.asset && offerAsset(a.network, a.asset).caip19) q.add('caip19_asset');
    const amount = amountText(a);
    if (!amount) q.add('empty_amount');
    else if (!/^\d+$/.test(amount)) q.add('non_numeric_amount');
  }
  if (methodFrom === 'output_schema') q.add('method_from_output_schema');
  if (methodFrom === 'default') q.add('method_defaulted');
  return [...q];
}

function amountText(a: X402Accept): string | null {
  const v = a.amount ?? a.maxAmountRequired;
  if (typeof v === 'number') return Number.isSafeInteger(v) && v >= 0 ? String(v) : null;
  return typeof v === 'string' ? v.trim() : null;
}

const CAIP19_ASSET = /^([-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,64})\/[-a-z0-9]{3,8}:([-.%a-zA-Z0-9]{1,128})$/;

/**
 * The token address of an offer. Some registries list the asset as a CAIP-19 id
 * (`eip155:8453/erc20:0x8335…`) instead of the bare address: when its chain is the offer's own
 * network, the address part is the asset. Anything else is returned trimmed, as given.
 */
export function offerAsset(network: string, asset: string): { asset: string; caip19: boolean } {
  const a = asset.trim();
  const m = CAIP19_ASSET.exec(a);
  if (m && m[1] === toCaip2(network)) return { asset: m[2]!, caip19: true };
  return { asset: a, caip19: false };
}

/**
 * The registry's lowest exact price and lowest stated maximum, in dollars (pipeline/x402/prices.ts:
 * known USD stablecoins of known mainnets; `upto` / `batch-settlement` amounts are maxima; other
 * schemes, and offers without a scheme, are not priced).
 */
export function registryPrices(accepts: readonly X402Accept[]): LowestPrices {
  const offers = accepts.flatMap((a) => {
    const amount = amountText(a);
    if (!amount || !a.asset || !a.scheme) return [];
    return [{ scheme: a.scheme.trim(), network: a.network, asset: offerAsset(a.network, a.asset).asset, amount }];
  });
  return lowestPrices(offers);
}

/**
 * What the catalog's listed offers declare about the payment terms (rule declared-terms/1): the same
 * offers, normalized like the live 402's (pipeline/x402/declared.ts). A `payTo` is read here only to
 * be hashed with the installation's secret, like the observed one; it is never stored in clear.
 */
export function registryDeclared(rawAccepts: readonly unknown[] | null | undefined, secret: string): DeclaredValues {
  return declaredOfOffers(
    parseAccepts(rawAccepts).map((a) => ({
      network: a.network,
      scheme: a.scheme ?? null,
      asset: a.asset ? offerAsset(a.network, a.asset).asset : null,
      amount: amountText(a),
      payTo: typeof a.payTo === 'string' ? a.payTo : null,
    })),
    secret,
  );
}

export function registryNetworks(accepts: readonly X402Accept[]): string[] {
  const set = new Set<string>();
  for (const a of accepts) {
    const n = sanitizeText(toCaip2(a.network), 100);
    if (n) set.add(n);
  }
  return [...set].sort();
}

/** The MCP transport a `type: "mcp"` item states (`extensions.bazaar.info.input.transport`); streamable HTTP when none. */
function mcpTransport(item: X402Item): string {
  const t = get(item.extensions, 'bazaar', 'info', 'input', 'transport');
  return typeof t === 'string' && t.trim().toLowerCase() === 'sse' ? 'sse' : 'streamable-http';
}

export function normalizeX402Item(rawItem: unknown, ctx: { pageVersion: number | null; secret: string }): X402Normalized {
  const soft = isRecord(rawItem) ? softDropMetadata(rawItem) : { item: rawItem, dropped: [] };
  const parsed = X402ItemSchema.safeParse(soft.item);
  if (!parsed.success) return { ok: false, reason: 'invalid_item' };
  const item = parsed.data;
  const kind = x402ItemKind(item.type);
  if (kind === 'unknown') return { ok: false, reason: 'unknown_type' };
  const res = typeof item.resource === 'string' ? { url: item.resource } : item.resource;
  const url = res.url.trim();
  if (url.length > MAX_URL || BAD_URL_CHARS.test(url)) return { ok: false, reason: kind === 'mcp' ? 'mcp_no_endpoint' : 'invalid_url' };
  const host = httpHost(url);
  if (!host) return { ok: false, reason: kind === 'mcp' ? 'mcp_no_endpoint' : 'invalid_url' };

  const accepts = parseAccepts(item.accepts);
  const prices = registryPrices(accepts);
  const { method, from: methodFrom } = methodWithSource(item, accepts);
  const version = versionOf(item.x402Version) ?? ctx.pageVersion;
  const label = [item.serviceName, item.label, get(res, 'serviceName'), get(item.extensions, 'bazaar', 'info', 'serviceName')]
    .map((v) => sanitizeText(v, TEXT_LIMITS.name))
    .find((v) => v !== null);
  const description =
    sanitizeText(item.description, TEXT_LIMITS.description) ??
    sanitizeText(get(res, 'description'), TEXT_LIMITS.description) ??
    accepts.map((a) => sanitizeText(a.description, TEXT_LIMITS.description)).find((d) => d !== null) ??
    null;

  // A `type: "mcp"` item names a paid tool of an MCP server: the service is the server at that URL,
  // reached like any remote MCP server (a plain GET, rule mcp-reach/3); the catalog's offers still
  // give its registry price and networks.
  const mcp = kind === 'mcp';
  const record: DiscoveredRecord = {
    id: mcp ? x402McpCandidateId(url) : x402CandidateId(method, url),
    type: mcp ? ServiceType.enum.mcp_server : ServiceType.enum.api_endpoint,
    protocol: mcp ? CheckKind.enum.mcp : CheckKind.enum.x402,
    pass_rule: mcp ? PASS_RULE_OF_KIND.mcp : PASS_RULE_OF_KIND.x402,
    name: label ?? host,
    host,
    url,
    method: mcp ? 'GET' : method,
    templated_url: isTemplatedUrl(url),
    tags: normalizeTags(Array.isArray(item.tags) ? item.tags : get(res, 'tags')),
    description,
    registry_key: url,
    x402_version: version,
    registry_updated_at: registryTime(item.lastUpdated),
    registry_calls_30d: registryCount(item.quality?.l30DaysTotalCalls),
    registry_payers_30d: registryCount(item.quality?.l30DaysUniquePayers),
    registry_last_called_at: registryTime(item.quality?.lastCalledAt),
    registry_price_usd: prices.exactUsd,
    registry_max_price_usd: prices.maxUsd,
    registry_networks: registryNetworks(accepts),
    mcp_status: null,
    mcp_server_name: null,
    remote_type: mcp ? mcpTransport(item) : null,
    listed: true,
    registry_raw: sanitizeRaw(soft.item, ctx.secret),
    ...(mcp ? {} : { declared: registryDeclared(item.accepts, ctx.secret) }),
  };
  const quirks = quirksOf(url, version, item.accepts?.length ?? 0, accepts, mcp ? 'mcp' : methodFrom);
  if (soft.dropped.length > 0) quirks.push('dropped_metadata');
  if (mcp) quirks.push('mcp_item');
  return { ok: true, record, quirks, dropped: soft.dropped };
}

export { versionOf as x402VersionOf };
