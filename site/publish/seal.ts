import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { AtlasError } from '../../pipeline/core/errors.ts';
import { type SigningKey, signBytes } from '../../pipeline/core/signing-key.ts';
import { SigningKeyInfo } from '../contract/signing.ts';
import {
  buildChecksums,
  CHECKSUMS_FILE,
  CHECKSUMS_SIG_FILE,
  checksumsBytes,
  comparePaths,
  type FoundFile,
  SELF_FILES,
  SIGNING_KEY_FILE,
} from './checksums.ts';
import { validated } from './write.ts';

/** Files at or above this size are hashed as a stream (`index/summaries.json` is ~150 MB at 100k services). */
const STREAM_FROM_BYTES = 1 << 20;

/** Size and SHA-256 of one file, counted from the bytes actually read (not from a separate stat). */
export async function hashFile(path: string, sizeHint = 0): Promise<{ bytes: number; sha256: string }> {
  const h = createHash('sha256');
  let bytes = 0;
  if (sizeHint < STREAM_FROM_BYTES) {
    const buf = await readFile(path);
    h.update(buf);
    bytes = buf.length;
  } else {
    for await (const chunk of createReadStream(path)) {
      h.update(chunk as Buffer);
      bytes += (chunk as Buffer).length;
    }
  }
  return { bytes, sha256: h.digest('hex') };
}

/**
 * Every entry under `root` (recursively, symlinks not followed), with `/`-separated relative paths
 * sorted by path; regular files are sized and hashed (bounded concurrency), anything else is
 * reported as `other` and never read. `skip` names root-level files left out entirely. `known`
 * gives the size and SHA-256 of files already hashed (a publish's hard links to the previous
 * generation): such a regular file is neither read nor stat'ed again.
 */
export async function scanTree(
  root: string,
  opts: { skip?: ReadonlySet<string>; concurrency?: number; known?: ReadonlyMap<string, { bytes: number; sha256: string }> } = {},
): Promise<FoundFile[]> {
  // Known files become entries at once; only the others wait for a read (a promise per file cost
  // seconds at 208,000 files). Paths are joined by hand: `root` and the names come from readdir.
  const found: FoundFile[] = [];
  const reads: Promise<void>[] = [];
  const limit = pLimit(opts.concurrency ?? 8);
  const walk = async (dir: string, prefix: string): Promise<void> => {
    for (const d of await readdir(dir, { withFileTypes: true })) {
      const path = prefix ? `${prefix}/${d.name}` : d.name;
      if (d.isDirectory()) await walk(`${dir}/${d.name}`, path);
      else if (!prefix && opts.skip?.has(d.name)) continue;
      else if (!d.isFile()) found.push({ path, kind: 'other', bytes: 0, sha256: null });
      else {
        // A known regular file is not opened at all: a hard link is the same inode as the file the
        // previous seal hashed, byte-identical by construction (`atlas verify --tree` still reads it).
        const k = opts.known?.get(path);
        if (k) found.push({ path, kind: 'file', bytes: k.bytes, sha256: k.sha256 });
        else {
          const abs = `${dir}/${d.name}`;
          reads.push(
            limit(async () => {
              found.push({ path, kind: 'file', ...(await hashFile(abs, (await lstat(abs)).size)) });
            }),
          );
        }
      }
    }
  };
  await walk(root, '');
  await Promise.all(reads);
  return found.sort((a, b) => comparePaths(a.path, b.path));
}

export interface SealResult {
  files: number;
  bytes: number;
  keyId: string;
}

/**
 * Seal a complete generation folder, after every other file is written and before the pointer
 * switches: write the public key (`atlas-signing-key.json`), hash every file, write
 * `checksums.json` (canonical bytes, checksums.ts) and `checksums.json.sig` (base64 Ed25519
 * signature over exactly those bytes, newline-terminated). A file written into the folder after
 * this would make the generation fail verification, so sealing is the last write; the signature is
 * its last file, so a folder with a signature is complete (a killed publish leaves none).
 */
export async function sealGeneration(
  genDir: string,
  opts: { generation: string; now: Date; key: SigningKey; known?: ReadonlyMap<string, { bytes: number; sha256: string }> },
): Promise<SealResult> {
  const info = validated(SigningKeyInfo, opts.key.info, SIGNING_KEY_FILE);
  await writeFile(join(genDir, SIGNING_KEY_FILE), `${JSON.stringify(info)}\n`);
  // Files hard-linked from the previous generation keep the hashes it sealed (`known`).
  const found = await scanTree(genDir, { skip: SELF_FILES, ...(opts.known ? { known: opts.known } : {}) });
  const odd = found.find((f) => f.kind !== 'file');
  if (odd) throw new AtlasError('internal', `publish: ${odd.path} in the generation is not a regular file; it cannot be sealed`);
  const checksums = buildChecksums({
    generation: opts.generation,
    createdAt: opts.now,
    keyId: info.key_id,
    files: found.map((f) => ({ path: f.path, bytes: f.bytes, sha256: f.sha256! })),
  });
  const bytes = checksumsBytes(checksums);
  await writeFile(join(genDir, CHECKSUMS_FILE), bytes);
  // The signature is the seal mark (generation.ts isSealedGeneration): written to a temporary name
  // and renamed, so a process killed mid-write leaves no signature rather than a torn one.
  const sigTmp = join(genDir, `.${CHECKSUMS_SIG_FILE}.tmp`);
  await writeFile(sigTmp, `${signBytes(opts.key.privateKey, bytes)}\n`);
  await rename(sigTmp, join(genDir, CHECKSUMS_SIG_FILE));
  return { files: checksums.files.length, bytes: checksums.files.reduce((n, f) => n + f.bytes, 0), keyId: info.key_id };
}
