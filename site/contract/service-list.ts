import { z } from 'zod';
import { ApiStatus, DateTime, GROUPS, Scope, SortKey } from './common.ts';
import { Notes } from './notes.ts';
import { REQUEST_LIMITS } from './requests.ts';
import { ServiceSummary } from './summary.ts';

/**
 * Echo of the effective query of GET /api/v1/services: scope, provider when given, sort, limit, offset; `group`
 * when collapsing by provider; `filters` holds the other effective, normalized filters by name.
 */
export const QueryEcho = z.strictObject({
  scope: Scope,
  provider: z.string().optional(),
  group: z.enum(GROUPS).optional(),
  sort: SortKey,
  limit: z.number().int().min(REQUEST_LIMITS.limitMin).max(REQUEST_LIMITS.limitMax),
  offset: z.number().int().nonnegative(),
  filters: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
});
export type QueryEcho = z.infer<typeof QueryEcho>;

/** Body of GET /api/v1/services. `hint` only when nothing matched. */
export const ServiceList = z.strictObject({
  api_status: ApiStatus,
  generated_at: DateTime,
  data_as_of: DateTime.nullable(),
  notes: Notes,
  query: QueryEcho,
  total: z.number().int().nonnegative(),
  items: z.array(ServiceSummary),
  hint: z.string().optional(),
});
export type ServiceList = z.infer<typeof ServiceList>;

export const NO_MATCH_HINT =
  'Nothing matched. Repeat the search with scope=index to search everything tracked, or send feedback of kind missing_service (POST /api/v1/feedback).';
