import { linkSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { AtlasError } from '../core/errors.ts';
import { CHECKSUMS_FILE, entryLineFinder } from './checksums.ts';
import { readFingerprints } from './fingerprint.ts';

/**
 * Sharing files with the previous generation (docs/notes/incremental-publish.md). A shared file is
 * a hard link: the same inode appears in both generation folders, so each folder stays complete on
 * its own (pruning the older one removes a name, never the data) and the switch of `current` stays
 * the one atomic step. A generation is never written after it is switched to, so a linked file is
 * never modified through either name.
 */

/**
 * The previous generation cannot be shared from: a file it should have is missing, or it is out of
 * step with its own fingerprints. The one error publish answers by rendering every service
 * (publish.ts); any other failure (a full disk, a permission, the database) fails the publish.
 */
export class PreviousGenerationUnusable extends AtlasError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('internal', message, undefined, options);
    this.name = 'PreviousGenerationUnusable';
  }
}

/** What an incremental publish may share: the previous generation and its fingerprints (same salt). */
export interface PreviousGeneration {
  dir: string;
  fingerprints: ReadonlyMap<string, string>;
}

/**
 * The previous generation as something to share from, or null when its fingerprints are absent,
 * made with another salt or more than a UTC day before `day` (the publish's UTC day).
 */
export async function previousGeneration(dir: string | null, salt: string, day: string): Promise<PreviousGeneration | null> {
  if (!dir) return null;
  const fingerprints = await readFingerprints(dir, salt, day);
  return fingerprints ? { dir, fingerprints } : null;
}

/** Hard-link `rel` of generation `from` into generation `to`; false when it cannot (missing, another device). */
export function linkFrom(from: string, to: string, rel: string): boolean {
  try {
    // Plain concatenation: `rel` is a generation-relative path publish built itself, and
    // path.join's normalisation was a tenth of the time of 200,000 links.
    linkSync(`${from}/${rel}`, `${to}/${rel}`);
    return true;
  } catch {
    return false;
  }
}

/**
 * The link worker: plain JavaScript under `// @ts-check`, so it needs no TypeScript loader, and it
 * starts without the parent's loader flags (`execArgv: []`): a worker that inherits tsx's loader
 * starts several times slower.
 */
const LINK_WORKER = new URL('./link-worker.mjs', import.meta.url);

/**
 * Hard-link many paths of generation `from` into `to` on a worker thread, while the publishing
 * thread renders the services that changed: for each path, in the order given, 1 when it was linked.
 * A synchronous loop is the fastest way to make the calls (about half the time of libuv's pool),
 * and on its own thread it costs the renderer nothing (two links per service: detail file and page). A worker that cannot run rejects.
 */
export function linkInBackground(from: string, to: string, rels: readonly string[]): Promise<Uint8Array> {
  if (rels.length === 0) return Promise.resolve(new Uint8Array(0));
  return new Promise<Uint8Array>((resolve, reject) => {
    const worker = new Worker(LINK_WORKER, { execArgv: [], workerData: { from, to, rels } });
    let done = false;
    worker.once('message', (ok: Uint8Array) => {
      done = true;
      resolve(ok);
    });
    worker.once('error', (e) => {
      done = true;
      reject(e);
    });
    worker.once('exit', (code) => {
      if (!done) reject(new Error(`publish: the link worker exited with code ${code} before it answered`));
    });
  });
}

/**
 * The entry lines of a generation's `checksums.json`, looked up in path order (checksums.ts
 * entryLineFinder): what the seal of the next generation reuses for the files it links. Finds
 * nothing when the list cannot be read (everything is then hashed). The list's signature was checked
 * when it was sealed, and `atlas verify --tree` reads every file anyway.
 */
export async function sealedLineFinder(generationDir: string): Promise<(path: string) => string | undefined> {
  try {
    return entryLineFinder(await readFile(join(generationDir, CHECKSUMS_FILE), 'utf8'));
  } catch {
    return () => undefined;
  }
}
