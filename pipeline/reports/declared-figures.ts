import type { Store } from '../store/store.ts';
import { TERMS_DIMENSIONS, type TermsDimension } from '../../site/contract/declared-terms.ts';
import { int } from './sql.ts';

/**
 * Declared-against-observed difference events in the report window [ws, until) (rule declared-terms/1:
 * table macro atlas_declared_differences in pipeline/store/rules.sql, evaluated from the raw
 * declarations and observations as of figures_until, so a frozen figure depends only on raw rows):
 * events that began in the window (also per dimension), events that ended in it, and the services with
 * an event that began in it. $1 = week start, $2 = figures_until.
 */
export const DECLARED_SQL = `
SELECT count(*) FILTER (WHERE atlas_in_window(began_at, $1::TIMESTAMP, $2::TIMESTAMP))::INTEGER AS began,
  count(*) FILTER (WHERE ended_at IS NOT NULL AND atlas_in_window(ended_at, $1::TIMESTAMP, $2::TIMESTAMP))::INTEGER AS ended,
  count(DISTINCT service_id) FILTER (WHERE atlas_in_window(began_at, $1::TIMESTAMP, $2::TIMESTAMP))::INTEGER AS services
FROM atlas_declared_differences($2::TIMESTAMP)
`;

export const DECLARED_DIMENSIONS_SQL = `
SELECT dimension, count(*)::INTEGER AS n
FROM atlas_declared_differences($2::TIMESTAMP)
WHERE atlas_in_window(began_at, $1::TIMESTAMP, $2::TIMESTAMP)
GROUP BY dimension
`;

export async function declaredFigures(
  store: Store,
  ws: string,
  until: string,
): Promise<{ began: number; ended: number; services: number; by_dimension: Record<TermsDimension, number> }> {
  const [row] = await store.all<Record<string, unknown>>(DECLARED_SQL, [ws, until]);
  const dims = await store.all<{ dimension: string; n: unknown }>(DECLARED_DIMENSIONS_SQL, [ws, until]);
  const by_dimension = Object.fromEntries(TERMS_DIMENSIONS.map((k) => [k, 0])) as Record<TermsDimension, number>;
  for (const r of dims)
    if ((TERMS_DIMENSIONS as readonly string[]).includes(r.dimension)) by_dimension[r.dimension as TermsDimension] = int(r.n);
  return { began: int(row?.began), ended: int(row?.ended), services: int(row?.services), by_dimension };
}
