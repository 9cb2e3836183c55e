/**
 * Times named steps of a run for its `runs.counts` (durations in whole ms). Measures elapsed time
 * for reporting only; no rule depends on it.
 */
export function stepTimer(): { steps: Record<string, number>; step: <T>(name: string, fn: () => Promise<T>) => Promise<T> } {
  const steps: Record<string, number> = {};
  const step = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    try {
      return await fn();
    } finally {
      steps[name] = (steps[name] ?? 0) + Math.round(performance.now() - t); // a name used twice adds up
    }
  };
  return { steps, step };
}
