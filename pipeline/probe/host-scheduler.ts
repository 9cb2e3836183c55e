import type { LimitFunction } from 'p-limit';

/**
 * Politeness and bounded memory. Operations are grouped by hostname; a ready queue
 * holds hosts that have work left and fewer than `perHost` requests in flight. Tasks are handed to
 * the global p-limit lazily — never more than `concurrency` submitted at once — so a 100k sweep does
 * not create 100k promises up front, and a host with many operations never holds global capacity
 * while it waits for its own slot. Hosts are served round-robin. O(1) per operation.
 */
interface HostQueue<T> {
  items: T[];
  next: number;
  inFlight: number;
  ready: boolean;
}

export async function runPerHost<T>(
  items: readonly T[],
  hostOf: (item: T) => string,
  opts: { perHost: number; concurrency: number; global: LimitFunction },
  work: (item: T) => Promise<void>,
): Promise<void> {
  const hosts = new Map<string, HostQueue<T>>();
  for (const it of items) {
    const h = hostOf(it);
    let q = hosts.get(h);
    if (!q) {
      q = { items: [], next: 0, inFlight: 0, ready: false };
      hosts.set(h, q);
    }
    q.items.push(it);
  }
  const ready: HostQueue<T>[] = [];
  let head = 0;
  const markReady = (q: HostQueue<T>) => {
    if (!q.ready && q.next < q.items.length && q.inFlight < opts.perHost) {
      q.ready = true;
      ready.push(q);
    }
  };
  for (const q of hosts.values()) markReady(q);
  let submitted = 0;
  let failure: unknown = null;
  return new Promise<void>((resolve, reject) => {
    const pump = (): void => {
      while (!failure && submitted < opts.concurrency && head < ready.length) {
        const q = ready[head++]!;
        q.ready = false;
        const item = q.items[q.next]!;
        q.items[q.next++] = undefined as T; // let finished operations be collected
        q.inFlight++;
        submitted++;
        markReady(q);
        opts
          .global(() => work(item))
          .then(
            () => {
              q.inFlight--;
              submitted--;
              markReady(q);
              pump();
            },
            (e) => {
              failure ??= e;
              submitted--;
              pump();
            },
          );
      }
      if (head > 4096 && head * 2 > ready.length) {
        ready.splice(0, head);
        head = 0;
      }
      if (submitted === 0 && (failure || head >= ready.length)) {
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
