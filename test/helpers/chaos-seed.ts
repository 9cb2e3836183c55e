/**
 * The seed of a chaos test: FIXED_SEED by default (`npm test` runs the same kills every time), a
 * number from ATLAS_CHAOS_SEED to replay one, or a fresh one for ATLAS_CHAOS_SEED=random
 * (`npm run test:chaos`). Tests print it, so a failure can be replayed.
 */
export const FIXED_SEED = 20261127;

export function chaosSeed(env: NodeJS.ProcessEnv = process.env): number {
  const v = env.ATLAS_CHAOS_SEED;
  if (v === 'random') return Math.floor(Math.random() * 2 ** 31);
  return v ? Number(v) : FIXED_SEED;
}

/** `fn`, and on failure one printed line that replays it (`<name>: failed with seed …`), then the error. */
export async function replayable<T>(name: string, seed: number, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    console.log(`${name}: failed with seed ${seed} (rerun with ATLAS_CHAOS_SEED=${seed})`);
    throw e;
  }
}
