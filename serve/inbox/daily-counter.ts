/**
 * Per-address counters per UTC calendar day (keys: 3 a day, feedback: 10 a day). Only the current
 * day is kept: a new day drops the old counts. `tryTake` reserves a unit synchronously (so two
 * concurrent requests cannot both take the last one); `give` returns it when the write failed.
 */
export const utcDay = (d: Date): string => d.toISOString().slice(0, 10);

export class DailyCounter {
  private day = '';
  private counts = new Map<string, number>();

  private roll(day: string): void {
    if (day !== this.day) {
      if (day < this.day) return; // an old record replayed at start: ignore for today's counts
      this.day = day;
      this.counts = new Map();
    }
  }

  /** Start counting `day` afresh (at start-up, before replaying the logs). */
  reset(day: string): void {
    this.day = day;
    this.counts = new Map();
  }

  /** Count a replayed record; records of other days do not count. */
  record(day: string, who: string): void {
    if (day !== this.day) return;
    this.counts.set(who, (this.counts.get(who) ?? 0) + 1);
  }

  count(day: string, who: string): number {
    return day === this.day ? (this.counts.get(who) ?? 0) : 0;
  }

  tryTake(day: string, who: string, limit: number): boolean {
    this.roll(day);
    if (day !== this.day) return true; // clock behind the newest record: do not block on stale state
    const n = this.counts.get(who) ?? 0;
    if (n >= limit) return false;
    this.counts.set(who, n + 1);
    return true;
  }

  give(day: string, who: string): void {
    if (day !== this.day) return;
    const n = this.counts.get(who) ?? 0;
    if (n > 0) this.counts.set(who, n - 1);
  }
}

/** Seconds from `now` to the next UTC midnight (Retry-After of a daily limit). */
export function secondsToNextUtcDay(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}
