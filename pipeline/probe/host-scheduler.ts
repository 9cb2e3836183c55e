import type { LimitFunction } from 'p-limit';

/**
 * Politeness and bounded memory. Operations are grouped by hostname; a ready queue
 * holds hosts that have work left and fewer than `perHost` requests in flight. Tasks are handed to
 * the global p-limit lazily — never more than `concurrency` submitted at once — so a 100k sweep does
 * not create 100k promises up front, and a host with many operations never holds global capacity
 * while it waits for its own slot. Hosts are served round-robin, in the order of their first item.
 * O(1) per operation.
 *
 * Memory: the grouping is a few typed arrays (item indexes ordered by host, each host a range),
 * not an object and an array per host, and `items` is consumed: each entry is cleared when it is
 * handed out, so a finished operation can be collected while the sweep goes on.
 */
export async function runPerHost<T>(
  items: Array<T | undefined>,
  hostOf: (item: T) => string,
  opts: { perHost: number; concurrency: number; global: LimitFunction },
  work: (item: T) => Promise<void>,
): Promise<void> {
  const n = items.length;
  // Host ids by first appearance, then a counting sort of item indexes by host id (stable).
  const hostIds = new Int32Array(n);
  const idOf = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const h = hostOf(items[i] as T);
    let id = idOf.get(h);
    if (id === undefined) {
      id = idOf.size;
      idOf.set(h, id);
    }
    hostIds[i] = id;
  }
  const hosts = idOf.size;
  idOf.clear();
  const end = new Int32Array(hosts);
  for (let i = 0; i < n; i++) end[hostIds[i]!]!++;
  for (let h = 1; h < hosts; h++) end[h]! += end[h - 1]!;
  const next = new Int32Array(hosts);
  for (let h = 1; h < hosts; h++) next[h] = end[h - 1]!;
  const order = new Int32Array(n);
  const fill = next.slice();
  for (let i = 0; i < n; i++) order[fill[hostIds[i]!]!++] = i;
  const inFlight = new Int32Array(hosts);
  const isReady = new Uint8Array(hosts);
  // Ready hosts, first in first out: a ring of at most `hosts` entries (a host is in it at most once).
  const ring = new Int32Array(Math.max(1, hosts));
  let head = 0;
  let queued = 0;
  const markReady = (h: number) => {
    if (!isReady[h] && next[h]! < end[h]! && inFlight[h]! < opts.perHost) {
      isReady[h] = 1;
      ring[(head + queued) % ring.length] = h;
      queued++;
    }
  };
  for (let h = 0; h < hosts; h++) markReady(h);
  let submitted = 0;
  let failure: unknown = null;
  return new Promise<void>((resolve, reject) => {
    const pump = (): void => {
      while (!failure && submitted < opts.concurrency && queued > 0) {
        const h = ring[head]!;
        head = (head + 1) % ring.length;
        queued--;
        isReady[h] = 0;
        const idx = order[next[h]!++]!;
        const item = items[idx] as T;
        items[idx] = undefined; // let finished operations be collected
        inFlight[h]!++;
        submitted++;
        markReady(h);
        opts
          .global(() => work(item))
          .then(
            () => {
              inFlight[h]!--;
              submitted--;
              markReady(h);
              pump();
            },
            (e) => {
              failure ??= e;
              submitted--;
              pump();
            },
          );
      }
      if (submitted === 0 && (failure || queued === 0)) {
        if (failure) reject(failure);
        else resolve();
      }
    };
    pump();
  });
}

export function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return url;
  }
}
