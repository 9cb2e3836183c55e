import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, readdir, readlink, rename, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { CHECKSUMS_SIG_FILE } from './checksums.ts';

/**
 * Generations of the published tree (CONTRACTS.md "Published tree"):
 * `<public>/generations/<id>/` holds one complete publish; `<public>/current` is a relative symlink
 * to `generations/<id>`, switched with rename(2) over the old link, which is atomic on POSIX: a
 * reader resolving `current` sees the old generation or the new one, never a mix.
 * Ids sort by time: `<UTC yyyymmddThhmmssZ>-<random>`.
 */
export const GENERATIONS = 'generations';
export const CURRENT = 'current';

export function newGenerationId(now: Date): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${stamp}-${randomBytes(4).toString('hex')}`;
}

export const generationDir = (publicDir: string, id: string) => join(publicDir, GENERATIONS, id);

export async function createGenerationDir(publicDir: string, id: string): Promise<string> {
  const dir = generationDir(publicDir, id);
  await mkdir(dir, { recursive: true });
  return dir;
}

/** The generation `current` points to, or null. */
export async function currentGeneration(publicDir: string): Promise<string | null> {
  try {
    const target = await readlink(join(publicDir, CURRENT));
    return target.split('/').filter(Boolean).pop() ?? null;
  } catch {
    return null;
  }
}

/**
 * A generation is sealed once its checksum signature exists: sealing (seal.ts) writes it last, by
 * rename, after every other file, and `current` is only ever switched to a sealed generation.
 */
export async function isSealedGeneration(dir: string): Promise<boolean> {
  try {
    return (await lstat(join(dir, CHECKSUMS_SIG_FILE))).isFile();
  } catch {
    return false;
  }
}

/**
 * Remove the generations a killed publish left half-written: every folder under `generations/`
 * that is not sealed, except the one `current` points to (never removed, whatever it holds).
 * Publish calls this before it writes a new generation, so a partial folder lives at most until the
 * next publish and never counts among the generations `pruneGenerations` keeps. Safe because one
 * publish writes a public folder at a time: publish runs inside the pipeline, which holds the
 * database read-write, and DuckDB allows one such process (docs/notes/crash-safety.md).
 */
export async function removeUnsealedGenerations(publicDir: string): Promise<string[]> {
  const root = join(publicDir, GENERATIONS);
  const ids = (await readdir(root).catch(() => [] as string[])).filter((n) => !n.startsWith('.')).sort();
  const current = await currentGeneration(publicDir);
  const removed: string[] = [];
  for (const id of ids) {
    if (id === current || (await isSealedGeneration(join(root, id)))) continue;
    await removeTree(join(root, id));
    removed.push(id);
  }
  return removed;
}

/** Point `current` at generation `id`: a temp symlink renamed over `current` (atomic). */
export async function switchCurrent(publicDir: string, id: string): Promise<void> {
  const tmp = join(publicDir, `.current-${id}-${randomBytes(3).toString('hex')}`);
  await symlink(join(GENERATIONS, id), tmp);
  try {
    await rename(tmp, join(publicDir, CURRENT));
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}

/**
 * Remove a generation folder. A generation holds two files per service (200,000 names at 100,000
 * services): rm(1) unlinks them in C on its own process, where fs.rm's recursion cost several times
 * as long on the publishing process (much of it garbage collection).
 * fs.rm remains the fallback where rm(1) cannot be started or fails.
 */
export async function removeTree(dir: string): Promise<void> {
  const ok = await new Promise<boolean>((resolve) => {
    const child = spawn('rm', ['-rf', '--', dir], { stdio: 'ignore' });
    child.on('error', () => resolve(false));
    child.on('exit', (code) => resolve(code === 0));
  });
  if (!ok) await rm(dir, { recursive: true, force: true });
}

/**
 * Keep the newest `keep` generations and always the one `current` points to (a reader that
 * resolved `current` just before the switch can finish reading the previous generation), and the
 * ids in `protect` (publish prunes while it writes its new generation, which is not current yet).
 * Also removes stray temp links left by a crash.
 */
export async function pruneGenerations(publicDir: string, keep: number, protect: readonly string[] = []): Promise<string[]> {
  const root = join(publicDir, GENERATIONS);
  const ids = (await readdir(root).catch(() => [] as string[])).filter((n) => !n.startsWith('.')).sort();
  const current = await currentGeneration(publicDir);
  const doomed = ids.slice(0, Math.max(0, ids.length - keep)).filter((id) => id !== current && !protect.includes(id));
  for (const id of doomed) await removeTree(join(root, id));
  for (const n of await readdir(publicDir).catch(() => [] as string[])) {
    if (n.startsWith('.current-')) await rm(join(publicDir, n), { force: true });
  }
  return doomed;
}
