/**
 * docs/design.md, search results: the same query may be answered from one computed result for up to five minutes.
 * A small LRU keyed by (generation, normalized query); an entry older than `ttlMs` by the injected
 * clock (or from the clock's future, after a clock jump back) is recomputed. Bounded by `maxEntries`.
 */
export interface CacheEntry<V> {
  value: V;
  computedAtMs: number;
  /** Every header of the HTTP answer (ETag, cache rules included), filled lazily by the route; `…Deprecated` adds the tier headers. */
  headers?: Record<string, string>;
  headersDeprecated?: Record<string, string>;
}

export class ResultCache<V> {
  private readonly map = new Map<string, CacheEntry<V>>();
  constructor(
    private readonly ttlMs = 5 * 60_000,
    private readonly maxEntries = 1000,
  ) {}

  get(key: string, nowMs: number): CacheEntry<V> | undefined {
    const e = this.map.get(key);
    if (!e) return undefined;
    if (nowMs - e.computedAtMs >= this.ttlMs || nowMs < e.computedAtMs) {
      this.map.delete(key);
      return undefined;
    }
    // Refresh LRU position (Map keeps insertion order).
    this.map.delete(key);
    this.map.set(key, e);
    return e;
  }

  set(key: string, value: V, nowMs: number): CacheEntry<V> {
    const e: CacheEntry<V> = { value, computedAtMs: nowMs };
    this.map.delete(key);
    this.map.set(key, e);
    this.evict();
    return e;
  }

  /** A second key for an existing entry (same value, same age). */
  alias(key: string, entry: CacheEntry<V>): void {
    this.map.delete(key);
    this.map.set(key, entry);
    this.evict();
  }

  private evict(): void {
    while (this.map.size > this.maxEntries) {
      const oldest = this.map.keys().next().value;
      if (oldest === undefined) break;
      this.map.delete(oldest);
    }
  }

  clear(): void {
    this.map.clear();
  }

  get size(): number {
    return this.map.size;
  }
}
