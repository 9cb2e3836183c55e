import { z } from 'zod';
import { ApiStatus, DateTime } from './common.ts';

/** A detected change to a reviewed service's documentation (table `changes`). */
export const ChangeRecord = z.strictObject({
  id: z.string(),
  service_id: z.string(),
  service_name: z.string().nullable(),
  url: z.string(),
  detected_at: DateTime,
  summary: z.string(),
  added_lines: z.number().int().nonnegative(),
  removed_lines: z.number().int().nonnegative(),
  needs_review: z.boolean(),
  review_terms: z.array(z.string()),
  diff: z.array(z.strictObject({ op: z.enum(['+', '-']), line: z.string() })),
});
export type ChangeRecord = z.infer<typeof ChangeRecord>;

/** GET /api/v1/changes (newest first). The published file holds 90 days; serve filters. */
export const ChangeList = z.strictObject({
  api_status: ApiStatus,
  generated_at: DateTime,
  query: z.strictObject({
    days: z.number().int().min(1).max(90),
    service_id: z.string().optional(),
    needs_review: z.boolean().optional(),
  }),
  window_start: DateTime,
  total: z.number().int().nonnegative(),
  items: z.array(ChangeRecord),
});
export type ChangeList = z.infer<typeof ChangeList>;
