import { AtlasError } from '../../pipeline/core/errors.ts';
import {
  ChangesQuerySchema,
  normalizeRawQuery,
  REQUEST_LIMITS,
  ServicesQuerySchema,
  type ChangesQueryInput,
  type ServicesQueryInput,
} from '../../site/contract/requests.ts';
import type { z } from 'zod';
import { normalizeFilters } from './filters.ts';
import type { SCOPES, SORTS } from '../../site/contract/common.ts';

export type Sort = (typeof SORTS)[number];

/** A search with every default applied: what filter/sort/page run on and what `query` echoes. */
export type EffectiveQuery = Omit<ServicesQueryInput, 'scope' | 'sort' | 'limit' | 'offset'> & {
  scope: (typeof SCOPES)[number];
  sort: Sort;
  limit: number;
  offset: number;
};

/** Turn zod issues into one 400 naming the first offending parameter. */
function rejectIssues(issues: z.core.$ZodIssue[]): never {
  const first = issues[0]!;
  if (first.code === 'unrecognized_keys') {
    const name = first.keys[0] ?? '';
    throw new AtlasError('invalid_parameter', `unknown parameter ${name}`, { parameter: name });
  }
  const name = String(first.path[0] ?? '');
  throw new AtlasError('invalid_parameter', `parameter ${name}: ${first.message}`, { parameter: name });
}

function parseWith<T>(schema: z.ZodType<T, Record<string, string>>, raw: Record<string, unknown>): T {
  const norm = normalizeRawQuery(raw);
  if (!norm.ok) throw new AtlasError('invalid_parameter', norm.message, { parameter: norm.param });
  const r = schema.safeParse(norm.value);
  if (!r.success) rejectIssues(r.error.issues);
  return r.data;
}

/** Raw query (HTTP strings or MCP tool values) → effective query. Throws `invalid_parameter` (400). */
export function parseServicesQuery(raw: Record<string, unknown>): EffectiveQuery {
  const q = parseWith(ServicesQuerySchema, raw);
  const out: EffectiveQuery = {
    ...q,
    scope: q.scope ?? 'directory',
    sort: q.sort ?? 'evidence',
    limit: q.limit ?? REQUEST_LIMITS.limitDefault,
    offset: q.offset ?? REQUEST_LIMITS.offsetDefault,
  };
  // Text parameters are normalized once (each filter's descriptor says how), so the cache key and the echo agree.
  normalizeFilters(out);
  return out;
}

/** Stable cache key: the effective query with keys sorted (defaults included, so `?` = `?limit=50`). */
export function queryKey(q: EffectiveQuery): string {
  const rec = q as Record<string, unknown>;
  return Object.keys(rec)
    .filter((k) => rec[k] !== undefined)
    .sort()
    .map((k) => `${k}=${JSON.stringify(rec[k])}`)
    .join('&');
}

export type EffectiveChangesQuery = Omit<ChangesQueryInput, 'days'> & { days: number };

export function parseChangesQuery(raw: Record<string, unknown>): EffectiveChangesQuery {
  const q = parseWith(ChangesQuerySchema, raw);
  return { ...q, days: q.days ?? REQUEST_LIMITS.daysDefault };
}
