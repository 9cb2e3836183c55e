/**
 * Freshness recomputed against the server's clock: the rule's one TypeScript home is
 * site/contract/freshness.ts (the pipeline's SQL copy, macro atlas_freshness, is tested equal to it).
 */
export { freshnessAt, freshWindowMs, isFreshAt, type FreshnessState as Freshness } from '../../site/contract/freshness.ts';
