import type { ServiceDetail } from '../../site/contract/service-detail.ts';
import type { ServiceSummary } from '../../site/contract/summary.ts';
import { withScheduleTier } from './deprecation.ts';
import { freshnessAt, type Freshness } from './freshness.ts';
import type { SearchRow } from './row.ts';

/**
 * Published objects are shared by every request; these return shallow copies with the values that
 * depend on the answer's time (freshness, schedule_tier) and on the server (absolute links when
 * `baseUrl` is configured).
 */
export interface PresentOptions {
  now: Date;
  baseUrl?: string | undefined;
}

function links(l: { page: string; api: string }, baseUrl: string | undefined): { page: string; api: string } {
  if (!baseUrl) return l;
  const b = baseUrl.replace(/\/+$/, '');
  const abs = (p: string) => (p.startsWith('/') ? `${b}${p}` : p);
  return { page: abs(l.page), api: abs(l.api) };
}

export function rowFreshness(row: SearchRow, now: Date): Freshness {
  return freshnessAt(row.lastCheckMs, row.intervalHours, now.getTime());
}

export function presentSummary(row: SearchRow, opts: PresentOptions): ServiceSummary {
  const s = row.summary;
  const evidence = withScheduleTier({ ...s.evidence, freshness: rowFreshness(row, opts.now) }, opts.now) as ServiceSummary['evidence'];
  return { ...s, evidence, links: links(s.links, opts.baseUrl) };
}

/**
 * The single-service object: freshness, the `fresh` criterion and membership recomputed like the
 * search does (membership = every other criterion passed at publish, and fresh now).
 */
export function presentDetail(detail: ServiceDetail, row: SearchRow, opts: PresentOptions): ServiceDetail {
  const freshness = rowFreshness(row, opts.now);
  const fresh = freshness === 'fresh';
  const inDirectory = row.criteriaExceptFresh && fresh;
  const evidence = withScheduleTier({ ...detail.evidence, freshness }, opts.now) as ServiceDetail['evidence'];
  const criteria = detail.directory.criteria.map((c) =>
    c.id === 'fresh' ? { ...c, passed: c.applies ? fresh : null, value: freshness } : c,
  );
  return {
    ...detail,
    evidence,
    links: links(detail.links, opts.baseUrl),
    in_directory: inDirectory,
    directory: { ...detail.directory, in_directory: inDirectory, criteria },
  };
}
