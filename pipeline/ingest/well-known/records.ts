import { PASS_RULE_OF_KIND } from '../../../site/contract/common.ts';
import { normalizeTags, sanitizeText, TEXT_LIMITS } from '../../core/sanitize.ts';
import { toCaip2 } from '../../../site/contract/networks.ts';
import type { DiscoveredRecord } from '../discovered.ts';
import { x402CandidateId } from '../ids.ts';
import { sanitizeRaw } from '../raw.ts';
import { isRecord } from '../source.ts';
import { declaredOfOffers } from '../../x402/declared.ts';
import { httpHost, isTemplatedUrl } from '../url.ts';
import type { WellKnownParsed } from './parse.ts';

/**
 * The resources of one parsed document → discovered x402 services (`api_endpoint`, rule
 * `x402-mainnet/2`), recorded under the origin's registry name (`well-known:<host>`). Pure.
 *
 * The id is the one a discovery registry gives the same method and URL (ids.ts), so a resource that
 * a catalog also lists is one service, not two. A seller document states no usage figures and no
 * priceable offer (no scheme, asset or decimals), so registry usage and prices stay null; a declared
 * network is kept as the registry's network (CAIP-2 when known). The name is the document's name,
 * else the host.
 */
export function wellKnownRecords(parsed: WellKnownParsed, origin: string, secret: string): DiscoveredRecord[] {
  const docName = sanitizeText(parsed.name, TEXT_LIMITS.name);
  const docDescription = sanitizeText(parsed.description, TEXT_LIMITS.description);
  return parsed.resources.map((r) => {
    const host = httpHost(r.url)!;
    const network = r.network ? sanitizeText(toCaip2(r.network), 100) : null;
    return {
      id: x402CandidateId(r.method, r.url),
      type: 'api_endpoint',
      protocol: 'x402',
      pass_rule: PASS_RULE_OF_KIND.x402,
      name: docName ?? host,
      host,
      url: r.url,
      method: r.method,
      templated_url: isTemplatedUrl(r.url),
      tags: normalizeTags([]),
      description: sanitizeText(r.description, TEXT_LIMITS.description) ?? docDescription,
      registry_key: r.url,
      x402_version: null,
      registry_updated_at: null,
      registry_calls_30d: null,
      registry_payers_30d: null,
      registry_last_called_at: null,
      registry_price_usd: null,
      registry_max_price_usd: null,
      registry_networks: network ? [network] : [],
      mcp_status: null,
      mcp_server_name: null,
      remote_type: null,
      listed: true,
      registry_raw: sanitizeRaw({ origin, entry: r.raw }, secret),
      // What the seller's own document declares (rule declared-terms/1): its network and receiving
      // address when the entry names them (hashed like the observed payee), never a price (a stated
      // price names no scheme, asset or decimals).
      declared: declaredOfOffers(
        r.network ? [{ network: r.network, payTo: isRecord(r.raw) && typeof r.raw.payTo === 'string' ? r.raw.payTo : null }] : [],
        secret,
      ),
    } satisfies DiscoveredRecord;
  });
}
