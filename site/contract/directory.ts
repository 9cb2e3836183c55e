import { z } from 'zod';
import { DateTime, DirectoryScope } from './common.ts';

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

/**
 * The directory object as a published single-service file carries it: `evaluated_at` is the
 * service's own instant only when its latest evaluation was a changed-scope one, and `scope` says
 * which evaluation that was (null: never evaluated); the last full evaluation's instant is the
 * generation's (`manifest.json` `directory_full_evaluation_at`). The server and `atlas verify` put
 * the answer's value back with site/contract/directory-evaluated.ts. `scope` is absent from the
 * files of older generations, whose `evaluated_at` is already the answer's value.
 */
export const DirectoryResultFile = DirectoryResult.extend({ scope: DirectoryScope.nullable().optional() });
export type DirectoryResultFile = z.infer<typeof DirectoryResultFile>;
