import { AtlasError } from './errors.ts';

/**
 * The clock is a parameter (docs/design.md, decision 3): every time rule reads an injected `now`.
 * A Clock returns the current instant; tests and `--now` pass a fixed one.
 */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

export const fixedClock =
  (at: Date): Clock =>
  () =>
    new Date(at.getTime());

const ISO_RE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** Parse a `--now` value. Accepts ISO-8601 dates and date-times; a time without offset is UTC. */
export function parseNow(value: string): Date {
  const v = value.trim();
  if (!ISO_RE.test(v)) {
    throw new AtlasError('bad_usage', `--now must be an ISO-8601 time such as 2026-11-25T12:00:00Z (got ${JSON.stringify(value)})`);
  }
  const withZone = /T/.test(v) && !/(Z|[+-]\d{2}:?\d{2})$/.test(v) ? `${v}Z` : v;
  const d = new Date(withZone);
  if (Number.isNaN(d.getTime())) {
    throw new AtlasError('bad_usage', `--now is not a valid time: ${JSON.stringify(value)}`);
  }
  return d;
}

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
