import { z } from 'zod';
import { DateTime } from './common.ts';

/** Criterion ids of listing-criteria/1, in order (computed by pipeline/compute; docs/notes/compute.md). */
export const CRITERION_IDS = ['checks_30d', 'fresh', 'pass_rate', 'listed', 'mainnet_offer', 'listing_active'] as const;
export const CriterionId = z.enum(CRITERION_IDS);
export type CriterionId = z.infer<typeof CriterionId>;

const Scalar = z.union([z.number(), z.string(), z.boolean()]).nullable();
/** A criterion's value: a scalar, or a flat object of scalars (e.g. `{listed, mcp_status}`). */
const CriterionValue = z.union([z.number(), z.string(), z.boolean(), z.record(z.string(), Scalar)]).nullable();

/** One criterion's result for one service. `passed` is null when the criterion does not apply. */
export const CriterionResult = z.strictObject({
  id: CriterionId,
  description: z.string(),
  applies: z.boolean(),
  passed: z.boolean().nullable(),
  value: CriterionValue,
  threshold: CriterionValue,
});
export type CriterionResult = z.infer<typeof CriterionResult>;

/** Directory membership of one service with every criterion's result. */
export const DirectoryResult = z.strictObject({
  rule: z.string(),
  evaluated_at: DateTime.nullable(),
  in_directory: z.boolean(),
  criteria: z.array(CriterionResult),
});
export type DirectoryResult = z.infer<typeof DirectoryResult>;
