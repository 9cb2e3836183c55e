/**
 * What a registry ingest did not turn into a service, and what it kept but noted, by reason. Both
 * go into the run's counts (`skipped`, `noted`) and are printed one line per reason, so registry
 * quirks are counted, never silently dropped. Pure.
 */
export type ReasonCounts = Record<string, number>;

/** Reasons in a stable order (largest first, then by name), zero counts left out. */
export function nonZero(counts: ReasonCounts): [string, number][] {
  return Object.entries(counts)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

export function tally<T extends string>(into: Partial<Record<T, number>>, reasons: Iterable<T>): void {
  for (const r of reasons) into[r] = (into[r] ?? 0) + 1;
}

/**
 * One line per reason: `<label>: skipped <n> <reason>` for each skip reason, then
 * `<label>: kept <n> <reason>` for each noted quirk; `<label>: skipped nothing` when nothing was skipped.
 */
export function reasonLines(label: string, skipped: ReasonCounts, noted: ReasonCounts): string[] {
  const s = nonZero(skipped).map(([r, n]) => `${label}: skipped ${n} ${r}`);
  const k = nonZero(noted).map(([r, n]) => `${label}: kept ${n} ${r}`);
  return [...(s.length ? s : [`${label}: skipped nothing`]), ...k];
}
