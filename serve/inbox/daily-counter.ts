/**
 * Per-address counters per UTC calendar day (keys: 3 a day, feedback: 10 a day). `tryTake`
 * reserves a unit synchronously (so two concurrent requests cannot both take the last one); `give`
 * returns it when the write failed.
 *
 * The current day is the newest day this replica's clock has reached (`reset`, `tryTake`,
 * `advance`); older days are dropped. Records of a later day are kept under that day: another
 * replica whose clock runs ahead (docs/notes/replicas.md, clock skew) may write tomorrow's records
 * before this replica's midnight, and they must count once this replica gets there.
 */
export const utcDay = (d: Date): string => d.toISOString().slice(0, 10);

export class DailyCounter {
  private day = '';
  /** day → address → count, for the current day and later ones only. */
  private days = new Map<string, Map<string, number>>();

  /** Move the current day forward to `day` (never back), dropping the counts of earlier days. */
  advance(day: string): void {
    if (day <= this.day) return;
    this.day = day;
    for (const d of this.days.keys()) if (d < day) this.days.delete(d);
  }

  /** Start counting `day` afresh (at start-up, before replaying the logs). */
  reset(day: string): void {
    this.day = day;
    this.days = new Map();
  }

  /** Count a replayed or followed record; records of days before the current one do not count. */
  record(day: string, who: string): void {
    if (day < this.day) return;
    this.add(day, who, 1);
  }

  count(day: string, who: string): number {
    return day < this.day ? 0 : (this.days.get(day)?.get(who) ?? 0);
  }

  tryTake(day: string, who: string, limit: number): boolean {
    this.advance(day);
    if (day < this.day) return true; // clock behind the newest day seen: do not block on stale state
    if (this.count(day, who) >= limit) return false;
    this.add(day, who, 1);
    return true;
  }

  give(day: string, who: string): void {
    if (day < this.day || this.count(day, who) === 0) return;
    this.add(day, who, -1);
  }

  private add(day: string, who: string, n: number): void {
    const m = this.days.get(day) ?? new Map<string, number>();
    this.days.set(day, m);
    m.set(who, (m.get(who) ?? 0) + n);
  }
}

/** Seconds from `now` to the next UTC midnight (Retry-After of a daily limit). */
export function secondsToNextUtcDay(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}
