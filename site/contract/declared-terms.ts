import { z } from 'zod';
import { DateTime, Day } from './common.ts';

/**
 * Declared against observed payment terms, rule declared-terms/1 (docs/notes/declared-terms.md; the
 * rule's one home is pipeline/store/rules.sql, atlas_declared_differing and the macros after it).
 * What a source declares (a catalog's listed offers, a seller's /.well-known/x402, our listing's
 * claims) is compared with the live 402 per dimension; a difference is a dated event. Measurements
 * and sourced statements only: never a rating.
 */
export const DECLARED_TERMS_RULE = 'declared-terms/1' as const;

/** The compared dimensions, in the order the rule lists them. */
export const TERMS_DIMENSIONS = ['max_price', 'network', 'asset', 'pay_to', 'price', 'scheme'] as const;
export const TermsDimension = z.enum(TERMS_DIMENSIONS);
export type TermsDimension = z.infer<typeof TermsDimension>;

/** Where a declaration comes from. */
export const DECLARED_SOURCE_KINDS = ['catalog', 'well_known', 'listing'] as const;
export const DeclaredSourceKind = z.enum(DECLARED_SOURCE_KINDS);
export type DeclaredSourceKind = z.infer<typeof DeclaredSourceKind>;

/**
 * A declared or observed value of one dimension: a dollar figure (price, max_price), a sorted list
 * (networks, 'network|asset', schemes), or null (the side states nothing there; always null for
 * pay_to: receiving addresses are compared but never published, not even hashed).
 */
export const DimensionValue = z.union([z.number().nonnegative(), z.array(z.string()), z.null()]);
export type DimensionValue = z.infer<typeof DimensionValue>;

/** The current state on the service (summary): null when no declaration could be compared with a live 402. */
export const DeclaredTermsState = z.strictObject({
  rule: z.literal(DECLARED_TERMS_RULE),
  differs: z.boolean(),
  dimensions: z.array(TermsDimension),
  since: DateTime.nullable(),
  sources_compared: z.number().int().positive(),
});
export type DeclaredTermsState = z.infer<typeof DeclaredTermsState>;

/** Where a listing claim was checked. */
export const ClaimCheck = z.strictObject({ source_url: z.string(), checked_at: Day });
export type ClaimCheck = z.infer<typeof ClaimCheck>;

/** What one source declares now, side by side with the comparison (single-service object). */
export const DeclaredSource = z.strictObject({
  kind: DeclaredSourceKind,
  name: z.string(),
  declared_since: DateTime,
  read_at: DateTime,
  price_usd: z.number().nonnegative().nullable(),
  max_price_usd: z.number().nonnegative().nullable(),
  networks: z.array(z.string()).nullable(),
  assets: z.array(z.string()).nullable(),
  schemes: z.array(z.string()).nullable(),
  states_pay_to: z.boolean(),
  checked: z.record(z.string(), ClaimCheck).nullable(),
  observed_at: DateTime.nullable(),
  compared: z.boolean(),
  differing: z.array(TermsDimension),
});
export type DeclaredSource = z.infer<typeof DeclaredSource>;

/** One difference event (single-service object; with the service in the change feed). */
export const DeclaredDifference = z.strictObject({
  source_kind: DeclaredSourceKind,
  source: z.string(),
  dimension: TermsDimension,
  began_at: DateTime,
  ended_at: DateTime.nullable(),
  declared_value: DimensionValue,
  declared_since: DateTime,
  observed_value: DimensionValue,
  observed_at: DateTime,
});
export type DeclaredDifference = z.infer<typeof DeclaredDifference>;

/** A difference event in the change feed: the event and its service. */
export const DeclaredDifferenceChange = DeclaredDifference.extend({
  service_id: z.string(),
  service_name: z.string().nullable(),
});
export type DeclaredDifferenceChange = z.infer<typeof DeclaredDifferenceChange>;
