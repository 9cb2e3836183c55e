import { linkSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChecksumEntry } from '../contract/signing.ts';
import { CHECKSUMS_FILE, parseChecksums } from './checksums.ts';
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
 * The previous generation's sealed size and SHA-256 of each linked path: a linked file is the same
 * inode, byte-identical by construction, so sealing need not read it again. Empty when the previous
 * list cannot be read (everything is then hashed).
 */
export async function linkedHashes(previousDir: string, linked: Iterable<string>): Promise<Map<string, ChecksumEntry>> {
  const out = new Map<string, ChecksumEntry>();
  let bytes: Buffer;
  try {
    bytes = await readFile(join(previousDir, CHECKSUMS_FILE));
  } catch {
    return out;
  }
  const parsed = parseChecksums(bytes);
  if (!parsed.ok) return out;
  const want = new Set(linked);
  for (const f of parsed.value.files) if (want.has(f.path)) out.set(f.path, f);
  return out;
}
