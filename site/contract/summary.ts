import { z } from 'zod';
import { CheckKind, DateTime, McpStatus, NameSource, NetworksSource, PriceSource, ServiceId, ServiceType, Tier } from './common.ts';
import { DeclaredTermsState } from './declared-terms.ts';
import { Evidence, EvidenceFile } from './evidence.ts';
import { PaymentTerms, PaymentTermsFile } from './payment-terms.ts';

/** Figures reported by a registry, never measured by Atlas (members are our choice). */
export const RegistryUsage = z.strictObject({
  registry: z.string().nullable(),
  calls_30d: z.number().int().nonnegative().nullable(),
  payers_30d: z.number().int().nonnegative().nullable(),
  last_called_at: DateTime.nullable(),
});
export type RegistryUsage = z.infer<typeof RegistryUsage>;

/**
 * One catalog (configured registry source) that lists or listed a discovered service: since its
 * first sweep that listed it, until the complete sweep that no longer did (null while it lists it).
 */
export const CatalogPresence = z.strictObject({
  /** `x402` (a discovery/resources catalog) or `mcp` (an MCP registry): the check kinds of discovered services. */
  kind: CheckKind.exclude(['reviewed']),
  name: z.string(),
  since: DateTime,
  until: DateTime.nullable(),
});
export type CatalogPresence = z.infer<typeof CatalogPresence>;

/** How the registry lists the service (discovered services; null for reviewed ones). */
export const RegistryListing = z.strictObject({
  registry: z.string().nullable(),
  listed: z.boolean(),
  status: McpStatus.nullable(),
  first_seen_at: DateTime.nullable(),
  last_seen_at: DateTime.nullable(),
  unlisted_at: DateTime.nullable(),
  updated_at: DateTime.nullable(),
  x402_version: z.number().int().nullable(),
  remote_type: z.string().nullable(),
  /** Every catalog that lists or listed the service, oldest first (the service is listed while one has until null). */
  catalogs: z.array(CatalogPresence),
  /**
   * A catalog lists it and Atlas's latest check of its primary operation failed, at the compute
   * instant (view catalog_standing, pipeline/store/rules.sql); null when never checked.
   */
  listed_but_failing: z.boolean().nullable(),
  /**
   * Atlas's latest check of its primary operation passed and a catalog that listed it has dropped it,
   * at the compute instant (view catalog_standing); null when never checked.
   */
  passing_but_unlisted: z.boolean().nullable(),
});
export type RegistryListing = z.infer<typeof RegistryListing>;

/** Relative links (CONTRACTS.md): page `/services/<id>`, api `/api/v1/services/<id>`; serve may prefix base_url. */
export const Links = z.strictObject({
  page: z.string(),
  api: z.string(),
});

/** One service as listed by GET /api/v1/services (every member also in the single-service object). */
export const ServiceSummary = z.strictObject({
  id: ServiceId,
  tier: Tier,
  type: ServiceType,
  name: z.string(),
  name_source: NameSource,
  host: z.string(),
  url: z.string(),
  method: z.string(),
  templated_url: z.boolean(),
  operator: z.string().nullable(),
  tags: z.array(z.string()),
  category: z.string().nullable(),
  price_usd: z.number().nonnegative().nullable(),
  max_price_usd: z.number().nonnegative().nullable(),
  price_source: PriceSource.nullable(),
  provider_endpoints: z.number().int().nonnegative(),
  networks: z.array(z.string()),
  networks_source: NetworksSource,
  mainnet: z.boolean().nullable(),
  evidence: Evidence,
  registry_usage: RegistryUsage.nullable(),
  registry_listing: RegistryListing.nullable(),
  payment_terms: PaymentTerms.nullable(),
  declared_terms: DeclaredTermsState.nullable(),
  links: Links,
});
export type ServiceSummary = z.infer<typeof ServiceSummary>;

/**
 * A summary as a generation's files carry it: evidence without `monitoring_days` (EvidenceFile) and
 * `payment_terms.window_start` only while `limited` (PaymentTermsFile).
 */
export const ServiceSummaryFile = ServiceSummary.extend({ evidence: EvidenceFile, payment_terms: PaymentTermsFile.nullable() });
export type ServiceSummaryFile = z.infer<typeof ServiceSummaryFile>;
