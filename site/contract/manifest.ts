import { z } from 'zod';
import { DateTime } from './common.ts';

/**
 * `manifest.json` of a generation: written last inside the generation folder, so a generation with
 * a manifest is complete. `counts.services` equals the records of the index (`index/buckets.json`).
 */
export const Manifest = z.strictObject({
  generation: z.string(),
  generated_at: DateTime,
  rule: z.string(),
  api_version: z.string(),
  counts: z.strictObject({
    services: z.number().int().nonnegative(),
    in_directory: z.number().int().nonnegative(),
    details: z.number().int().nonnegative(),
    reports: z.number().int().nonnegative(),
    changes: z.number().int().nonnegative(),
  }),
  pages: z.boolean(),
  /**
   * The last full directory evaluation's instant (the hourly evaluation of every service), null
   * when there has been none: the `directory.evaluated_at` of every service whose file has
   * `directory.scope` `full` (site/contract/directory-evaluated.ts). Absent from generations
   * published before the files left it out.
   */
  directory_full_evaluation_at: DateTime.nullable().optional(),
});
export type Manifest = z.infer<typeof Manifest>;
