/**
 * Registry times arrive as ISO strings or unix numbers (the x402 spec says a unix number, the
 * largest registry sends ISO strings — docs/reference.md): accept both. Unix values above 1e12 are
 * taken as milliseconds, others as seconds. Returns an ISO string or null when unusable.
 */
export function registryTime(value: unknown): string | null {
  let d: Date | null = null;
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) {
    d = new Date(value > 1e12 ? value : value * 1000);
  } else if (typeof value === 'string' && value.trim()) {
    const v = value.trim();
    if (/^\d+(\.\d+)?$/.test(v)) return registryTime(Number(v));
    d = new Date(v);
  }
  if (!d || Number.isNaN(d.getTime())) return null;
  // Years outside 1970–9999 are noise (and would not fit a TIMESTAMP column comfortably).
  const y = d.getUTCFullYear();
  if (y < 1970 || y > 9999) return null;
  return d.toISOString();
}

/** A non-negative integer count from a registry figure, or null. */
export function registryCount(value: unknown): number | null {
  const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? Math.floor(n) : null;
}
