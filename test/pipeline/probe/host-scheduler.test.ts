import pLimit from 'p-limit';
import { describe, expect, it } from 'vitest';
import { runPerHost } from '../../../pipeline/probe/host-scheduler.ts';

/**
 * The per-host scheduler: every item once, never more than `perHost` in flight per host nor
 * `concurrency` overall, hosts served round-robin in the order of their first item, and the input
 * array consumed (entries cleared) so finished operations can be collected. Work completes when the
 * test resolves it: no timers.
 */
interface Item {
  id: number;
  host: string;
}

function harness(items: Item[], perHost: number, concurrency: number) {
  const started: number[] = [];
  const pending: Array<() => void> = [];
  const inFlight = new Map<string, number>();
  let overall = 0;
  let maxOverall = 0;
  let maxPerHost = 0;
  const done = runPerHost(
    items,
    (it) => it.host,
    { perHost, concurrency, global: pLimit(concurrency) },
    (it) =>
      new Promise<void>((resolve) => {
        started.push(it.id);
        overall++;
        maxOverall = Math.max(maxOverall, overall);
        const n = (inFlight.get(it.host) ?? 0) + 1;
        inFlight.set(it.host, n);
        maxPerHost = Math.max(maxPerHost, n);
        pending.push(() => {
          overall--;
          inFlight.set(it.host, inFlight.get(it.host)! - 1);
          resolve();
        });
      }),
  );
  const settle = async () => {
    await new Promise((r) => setImmediate(r));
  };
  return {
    done,
    started,
    /** Finish everything in flight, again and again, until the run is over. */
    async drain() {
      for (let guard = 0; guard < 10_000; guard++) {
        await settle();
        if (!pending.length) break;
        for (const f of pending.splice(0)) f();
      }
      await done;
    },
    limits: () => ({ maxOverall, maxPerHost }),
  };
}

describe('runPerHost', () => {
  it('runs every item once within the per-host and global limits, and consumes the input', async () => {
    const items: Item[] = [];
    for (let i = 0; i < 300; i++) items.push({ id: i, host: `h${i % 7 === 0 ? 0 : i % 13}` });
    const input: Array<Item | undefined> = [...items];
    const h = harness(input as Item[], 2, 16);
    await h.drain();
    expect([...h.started].sort((a, b) => a - b)).toEqual(items.map((i) => i.id));
    expect(h.limits().maxPerHost).toBeLessThanOrEqual(2);
    expect(h.limits().maxOverall).toBeLessThanOrEqual(16);
    expect(h.limits().maxOverall).toBe(16);
    expect(input.every((x) => x === undefined)).toBe(true);
  });

  it('serves hosts round-robin in the order of their first item, each host in item order', async () => {
    const items: Item[] = [
      { id: 0, host: 'b' },
      { id: 1, host: 'a' },
      { id: 2, host: 'b' },
      { id: 3, host: 'c' },
      { id: 4, host: 'a' },
      { id: 5, host: 'b' },
    ];
    const h = harness(items, 1, 1);
    await h.drain();
    expect(h.started).toEqual([0, 1, 3, 2, 4, 5]);
  });

  it('stops handing out work after a failure and rejects with it', async () => {
    const items: Item[] = Array.from({ length: 50 }, (_, i) => ({ id: i, host: `h${i}` }));
    let ran = 0;
    const run = runPerHost(
      items,
      (it) => it.host,
      { perHost: 1, concurrency: 4, global: pLimit(4) },
      async (it) => {
        ran++;
        if (it.id === 2) throw new Error('boom');
      },
    );
    await expect(run).rejects.toThrow('boom');
    expect(ran).toBeLessThan(50);
  });

  it('handles an empty list', async () => {
    await expect(
      runPerHost(
        [],
        () => 'x',
        { perHost: 2, concurrency: 4, global: pLimit(4) },
        async () => undefined,
      ),
    ).resolves.toBe(undefined);
  });
});
