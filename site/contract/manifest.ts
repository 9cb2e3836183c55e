import { z } from 'zod';
import { DateTime } from './common.ts';

/**
 * `manifest.json` of a generation: written last inside the generation folder, so a generation with
 * a manifest is complete. `counts.services` equals the length of `index/summaries.json`.
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
});
export type Manifest = z.infer<typeof Manifest>;
