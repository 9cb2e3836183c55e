import { isAbsolute, relative } from 'node:path';
import { PROJECT_ROOT } from '../../core/paths.ts';
import { sanitizeText, TEXT_LIMITS } from '../../core/sanitize.ts';
import { toCaip2 } from '../../../site/contract/networks.ts';
import { httpHost, isTemplatedUrl } from '../url.ts';
import { NOTHING_DECLARED } from '../../x402/declared.ts';
import type { DeclaredRow } from '../declared-terms.ts';
import { defaultProtocol, INTERVAL_HOURS, type Listing, type ListingSource } from './schema.ts';

/**
 * A valid listing → the `services` row and `operations` rows it stands for. Pure.
 * Operations of an inactive listing are disabled (nothing is probed for it), never deleted.
 */
export interface ReviewedServiceRow {
  id: string;
  type: Listing['type'];
  name: string;
  host: string;
  url: string;
  method: string;
  templated_url: boolean;
  operator: string;
  category: string;
  tags: string[];
  description: string | null;
  active: boolean;
  protocol: 'x402' | 'mcp' | 'none';
  approved_at: string;
  operator_price_usd: number | null;
  operator_networks: string[];
  claims: StoredClaims;
  documentation_urls: string[];
  listing_file: string;
}

/**
 * `services.claims` of a reviewed service: one entry per sourced statement, in a fixed topic order
 * (operator, endpoint, documentation, access, price_usd, networks), each with the value, the URL it
 * was checked against and the day of the check. The listing's `sources` entries get their value from
 * the listing's fields; networks are stored as CAIP-2. Publish turns each entry into a Claim.
 */
export interface StoredClaim {
  value: unknown;
  source_url: string;
  checked_at: string;
  note?: string;
}
export type StoredClaims = Record<string, StoredClaim>;

export interface ReviewedOperationRow {
  id: string;
  kind: 'call' | 'documentation';
  is_primary: boolean;
  url: string;
  method: string;
  expected_statuses: number[];
  interval_hours: number;
  enabled: boolean;
}

/** Listing paths are stored relative to the project when inside it (stable across checkouts). */
export function listingFileLabel(file: string): string {
  const rel = relative(PROJECT_ROOT, file);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : file;
}

export function listingRows(listing: Listing, file: string): { service: ReviewedServiceRow; operations: ReviewedOperationRow[] } {
  const primary = listing.operations.find((o) => o.primary)!; // the schema guarantees exactly one
  const networks = listing.claims.networks ? [...new Set(listing.claims.networks.value.map(toCaip2))].sort() : [];
  const documentation = [
    ...new Set([...listing.documentation_urls, ...listing.operations.filter((o) => o.kind === 'documentation').map((o) => o.url)]),
  ];
  const claims: StoredClaims = {};
  const put = (topic: string, value: unknown, src: ListingSource | undefined) => {
    if (src) claims[topic] = { value, source_url: src.source_url, checked_at: src.checked_at, ...(src.note ? { note: src.note } : {}) };
  };
  put('operator', listing.operator, listing.sources.operator);
  put('endpoint', `${primary.method} ${primary.url}`, listing.sources.endpoint);
  put('documentation', documentation, listing.sources.documentation);
  put('access', listing.claims.access?.value, listing.claims.access);
  put('price_usd', listing.claims.price_usd?.value, listing.claims.price_usd);
  put('networks', networks, listing.claims.networks);
  return {
    service: {
      id: listing.id,
      type: listing.type,
      name: sanitizeText(listing.name, TEXT_LIMITS.name) ?? listing.id,
      host: httpHost(primary.url) ?? '',
      url: primary.url,
      method: primary.method,
      templated_url: isTemplatedUrl(primary.url),
      operator: sanitizeText(listing.operator, TEXT_LIMITS.operator) ?? listing.operator,
      category: listing.category,
      tags: [...new Set(listing.tags)],
      description: sanitizeText(listing.description, TEXT_LIMITS.description),
      active: listing.active,
      protocol: listing.protocol ?? defaultProtocol(listing.type),
      approved_at: new Date(listing.approved_at).toISOString(),
      operator_price_usd: listing.claims.price_usd?.value ?? null,
      operator_networks: networks,
      claims,
      documentation_urls: [...new Set(listing.documentation_urls)],
      listing_file: listingFileLabel(file),
    },
    operations: listing.operations.map((o) => ({
      id: o.id,
      kind: o.kind,
      is_primary: o.primary,
      url: o.url,
      method: o.method,
      expected_statuses: [...new Set(o.expected_statuses)].sort((a, b) => a - b),
      interval_hours: INTERVAL_HOURS[o.interval],
      enabled: listing.active,
    })),
  };
}

/**
 * What a reviewed listing declares about the payment terms (rule declared-terms/1): its price claim
 * (an operator-stated price per request, compared as an exact price) and its networks claim (CAIP-2),
 * each with where and when it was checked. An inactive listing states nothing as fact, so it
 * declares nothing.
 */
export function listingDeclared(s: ReviewedServiceRow): DeclaredRow {
  const price = s.claims.price_usd;
  const networks = s.claims.networks;
  const statedPrice = s.active && price && typeof price.value === 'number' ? price.value : null;
  const statedNetworks = s.active && networks && s.operator_networks.length ? s.operator_networks : null;
  const where = (c: StoredClaim) => ({ source_url: c.source_url, checked_at: c.checked_at });
  const detail: Record<string, unknown> = {};
  if (statedPrice !== null && price) detail.price_usd = where(price);
  if (statedNetworks !== null && networks) detail.networks = where(networks);
  return {
    service_id: s.id,
    values: { ...NOTHING_DECLARED, price_usd: statedPrice, networks: statedNetworks },
    ...(Object.keys(detail).length ? { detail } : {}),
  };
}
