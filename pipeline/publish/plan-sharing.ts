import type { FingerprintRow } from './fingerprint.ts';

/**
 * What an incremental publish shares with the previous generation, decided from the fingerprints
 * and the bucket counts alone (docs/notes/incremental-publish.md). Pure: no file is read here; the
 * phases of services.ts carry the plan out.
 *
 * A service is `shared` when the previous generation has its fingerprint and it is equal (its
 * detail file and page are that generation's); every other service is rendered.
 * A bucket file (site/contract/index-record.ts) is
 *   - `link`: every service in it is shared and the previous bucket held exactly as many (none left
 *     it): the file is the previous one, hard-linked;
 *   - `copy`: every service in it is shared but the previous bucket held another number: the lines
 *     are copied from the previous bucket, nothing is rendered;
 *   - `render`: at least one service in it is rendered (the shared ones' lines are copied).
 */
export type BucketAction = 'link' | 'copy' | 'render';

export interface PlannedService {
  row: FingerprintRow;
  shared: boolean;
}

export interface BucketPlan {
  bucket: number;
  action: BucketAction;
  /** The bucket's services in ordinal order (ord = position by bucket, then id). */
  services: PlannedService[];
}

export interface SharingPlan {
  /** The shared services, in ordinal order. */
  shared: FingerprintRow[];
  /** The ordinals of the services to render, ascending: the rows the batches read. */
  render: number[];
  /** Every bucket holding a service, in bucket order. */
  buckets: BucketPlan[];
}

/**
 * `rows`: every service's fingerprint row in ordinal order (so grouped by bucket). `previous`: the
 * previous generation's fingerprints by id (null: a full render). `previousCounts`: its bucket
 * counts when it used the same bucket bits (null: none of its bucket files can be linked).
 */
export function planSharing(
  rows: readonly FingerprintRow[],
  previous: ReadonlyMap<string, string> | null,
  previousCounts: readonly number[] | null,
): SharingPlan {
  const plan: SharingPlan = { shared: [], render: [], buckets: [] };
  const renders: number[] = []; // by position in plan.buckets
  for (const row of rows) {
    let b = plan.buckets.at(-1);
    if (b?.bucket !== row.bucket) {
      b = { bucket: row.bucket, action: 'render', services: [] };
      plan.buckets.push(b);
      renders.push(0);
    }
    const shared = previous !== null && previous.get(row.id) === row.fp;
    b.services.push({ row, shared });
    if (shared) plan.shared.push(row);
    else {
      plan.render.push(row.ord);
      renders[renders.length - 1]! += 1;
    }
  }
  plan.buckets.forEach((b, i) => {
    if (renders[i]! === 0) b.action = previousCounts?.[b.bucket] === b.services.length ? 'link' : 'copy';
  });
  return plan;
}
