import type { Clock } from '../../pipeline/core/clock.ts';

/**
 * The demo's clock, shared by Atlas and the fleet. While back-filling, `set(t)` jumps to a simulated
 * instant and time then runs on from it at real speed (so checks inside one cycle get distinct,
 * realistic times and latencies are real); `followReal()` switches to the wall clock for the live
 * part. Only the demo uses the wall clock; every step still reads time through this Clock.
 */
export interface SimClock extends Clock {
  set(at: Date): void;
  followReal(): void;
  readonly simulated: boolean;
}

export function createSimClock(start: Date, realNow: () => number = Date.now): SimClock {
  let base = start.getTime();
  let realBase = realNow();
  let simulated = true;
  const clock = (() => (simulated ? new Date(base + (realNow() - realBase)) : new Date(realNow()))) as SimClock;
  clock.set = (at) => {
    base = at.getTime();
    realBase = realNow();
    simulated = true;
  };
  clock.followReal = () => {
    simulated = false;
  };
  Object.defineProperty(clock, 'simulated', { get: () => simulated });
  return clock;
}
