import { z } from 'zod';
import { ApiStatus, DateTime, Scope, SortKey } from './common.ts';
import { Notes } from './notes.ts';
import { ServiceSummary } from './summary.ts';

/**
 * Echo of the effective query (spec 2.1): scope, provider when given, sort, limit, offset; `group`
 * when collapsing by provider; `filters` holds the other effective, normalized filters by name.
 */
export const QueryEcho = z.strictObject({
  scope: Scope,
  provider: z.string().optional(),
  group: z.literal('provider').optional(),
  sort: SortKey,
  limit: z.number().int().min(1).max(100),
  offset: z.number().int().nonnegative(),
  filters: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
});
export type QueryEcho = z.infer<typeof QueryEcho>;

/** Spec 2.1: body of GET /api/v1/services. `hint` only when nothing matched. */
export const ServiceList = z.strictObject({
  api_status: ApiStatus,
  generated_at: DateTime,
  notes: Notes,
  query: QueryEcho,
  total: z.number().int().nonnegative(),
  items: z.array(ServiceSummary),
  hint: z.string().optional(),
});
export type ServiceList = z.infer<typeof ServiceList>;

export const NO_MATCH_HINT =
  'Nothing matched. Repeat the search with scope=index to search everything tracked, or send feedback of kind missing_service (POST /api/v1/feedback).';
