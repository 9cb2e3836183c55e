import { linkSync } from 'node:fs';
import { link, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChecksumEntry } from '../contract/signing.ts';
import { CHECKSUMS_FILE } from './checksums.ts';
import { readFingerprints } from './fingerprint.ts';

/**
 * Sharing files with the previous generation (docs/notes/incremental-publish.md). A shared file is
 * a hard link: the same inode appears in both generation folders, so each folder stays complete on
 * its own (pruning the older one removes a name, never the data) and the switch of `current` stays
 * the one atomic step. A generation is never written after it is switched to, so a linked file is
 * never modified through either name.
 */

/** What an incremental publish may share: the previous generation and its fingerprints (same salt). */
export interface PreviousGeneration {
  dir: string;
  fingerprints: ReadonlyMap<string, string>;
}

/** The previous generation as something to share from, or null when its fingerprints are absent or made with another salt. */
export async function previousGeneration(dir: string | null, salt: string): Promise<PreviousGeneration | null> {
  if (!dir) return null;
  const fingerprints = await readFingerprints(dir, salt);
  return fingerprints ? { dir, fingerprints } : null;
}

/** Hard-link `rel` of generation `from` into generation `to`; false when it cannot (missing, another device). */
export function linkFrom(from: string, to: string, rel: string): boolean {
  try {
    linkSync(join(from, rel), join(to, rel));
    return true;
  } catch {
    return false;
  }
}

/**
 * Hard-link many paths of generation `from` into `to`, a bounded number at a time on libuv's
 * threads (a sync link per file on the main thread cost about 19 µs each, 2 s per 100k files): the
 * paths that could be linked, in the order given.
 */
export async function linkAll(from: string, to: string, rels: readonly string[], concurrency = 16): Promise<boolean[]> {
  const out = new Array<boolean>(rels.length).fill(false);
  let next = 0;
  const worker = async () => {
    while (next < rels.length) {
      const i = next++;
      const rel = rels[i]!;
      out[i] = await link(join(from, rel), join(to, rel)).then(
        () => true,
        () => false,
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, rels.length) }, worker));
  return out;
}

const SHA256 = /^[0-9a-f]{64}$/;

/**
 * The previous generation's sealed size and SHA-256 of each linked path: a linked file is the same
 * inode, byte-identical by construction, so sealing need not read it again. Empty when the previous
 * list cannot be read (everything is then hashed). Only the entries asked for are checked (a path
 * string, a whole size, a SHA-256 in hex); the previous list's signature was checked when it was
 * sealed, and `atlas verify --tree` reads every file anyway.
 */
export async function linkedHashes(previousDir: string, linked: Iterable<string>): Promise<Map<string, ChecksumEntry>> {
  const out = new Map<string, ChecksumEntry>();
  let files: unknown;
  try {
    files = (JSON.parse(await readFile(join(previousDir, CHECKSUMS_FILE), 'utf8')) as { files?: unknown }).files;
  } catch {
    return out;
  }
  if (!Array.isArray(files)) return out;
  const want = new Set(linked);
  for (const f of files as Partial<ChecksumEntry>[]) {
    if (typeof f?.path !== 'string' || !want.has(f.path)) continue;
    if (Number.isInteger(f.bytes) && (f.bytes as number) >= 0 && typeof f.sha256 === 'string' && SHA256.test(f.sha256))
      out.set(f.path, { path: f.path, bytes: f.bytes as number, sha256: f.sha256 });
  }
  return out;
}
