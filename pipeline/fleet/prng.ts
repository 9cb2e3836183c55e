/**
 * Small deterministic PRNG (mulberry32) so a (seed, size) pair always yields the same fleet.
 * Also a stateless hash for per-endpoint values derived on demand (no per-endpoint state kept).
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a 32-bit over a string: a stable per-name number. */
export function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Pick from weighted entries with r in [0, 1). */
export function pickWeighted<T>(entries: ReadonlyArray<readonly [T, number]>, r: number): T {
  const total = entries.reduce((s, [, w]) => s + w, 0);
  let x = r * total;
  for (const [v, w] of entries) {
    if (x < w) return v;
    x -= w;
  }
  return entries[entries.length - 1]![0];
}
