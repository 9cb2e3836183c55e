import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { AtlasError } from '../core/errors.ts';
import { type SigningKey, signBytes } from '../core/signing-key.ts';
import { SigningKeyInfo } from '../../site/contract/signing.ts';
import {
  CHECKSUMS_FILE,
  CHECKSUMS_SIG_FILE,
  checkEntry,
  checksumsBytesOf,
  checksumsHead,
  comparePaths,
  entryLine,
  type FoundFile,
  SELF_FILES,
  SIGNING_KEY_FILE,
} from './checksums.ts';
import { validated } from './write.ts';

/** Files at or above this size are hashed as a stream (bounded memory whatever a file's size). */
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

/** An entry found under a root: its `/`-separated relative path, and whether it is a regular file. */
export interface TreeEntry {
  path: string;
  file: boolean;
}

/**
 * Every entry under `root` (recursively, symlinks not followed), sorted by path (comparePaths);
 * `skip` names root-level files left out entirely. Nothing is opened or stat'ed: the names and
 * types come from readdir.
 */
export async function listTree(root: string, skip?: ReadonlySet<string>): Promise<TreeEntry[]> {
  const out: TreeEntry[] = [];
  // Paths are joined by hand: `root` and the names come from readdir.
  const walk = async (dir: string, prefix: string): Promise<void> => {
    for (const d of await readdir(dir, { withFileTypes: true })) {
      const path = prefix ? `${prefix}/${d.name}` : d.name;
      if (d.isDirectory()) await walk(`${dir}/${d.name}`, path);
      else if (!prefix && skip?.has(d.name)) continue;
      else out.push({ path, file: d.isFile() });
    }
  };
  await walk(root, '');
  return out.sort((a, b) => comparePaths(a.path, b.path));
}

/**
 * Every entry under `root` as listTree finds it, regular files sized and hashed (bounded
 * concurrency), anything else reported as `other` and never read.
 */
export async function scanTree(root: string, opts: { skip?: ReadonlySet<string>; concurrency?: number } = {}): Promise<FoundFile[]> {
  const limit = pLimit(opts.concurrency ?? 8);
  return Promise.all(
    (await listTree(root, opts.skip)).map((e): FoundFile | Promise<FoundFile> =>
      e.file
        ? limit(async () => {
            const abs = `${root}/${e.path}`;
            return { path: e.path, kind: 'file', ...(await hashFile(abs, (await lstat(abs)).size)) };
          })
        : { path: e.path, kind: 'other', bytes: 0, sha256: null },
    ),
  );
}

export interface SealResult {
  files: number;
  keyId: string;
}

/**
 * Seal a complete generation folder, after every other file is written and before the pointer
 * switches: write the public key (`atlas-signing-key.json`), hash every file, write
 * `checksums.json` (canonical bytes, checksums.ts) and `checksums.json.sig` (base64 Ed25519
 * signature over exactly those bytes, newline-terminated). A file written into the folder after
 * this would make the generation fail verification, so sealing is the last write; the signature is
 * its last file, so a folder with a signature is complete (a killed publish leaves none).
 *
 * `known(path)` gives the entry line (checksums.ts entryLine) of a file whose size and SHA-256
 * are already known: a file the publish hashed as it wrote it, or a hard link to a file of the
 * previous generation (the same inode, byte-identical by construction, with the line its seal
 * wrote). Such a file is neither read nor stat'ed again (`atlas verify --tree` still reads it); every
 * other file is. `known` gets every path of the tree once, as one array sorted by comparePaths
 * (listTree), and answers a line or undefined for each, by position: the order is the argument's,
 * so a lookup may take one pass over a list in the same order. The tree is still walked, so the
 * list names exactly the files present.
 */
export async function sealGeneration(
  genDir: string,
  opts: { generation: string; now: Date; key: SigningKey; known?: (sortedPaths: readonly string[]) => (string | undefined)[] },
): Promise<SealResult> {
  const info = validated(SigningKeyInfo, opts.key.info, SIGNING_KEY_FILE);
  await writeFile(join(genDir, SIGNING_KEY_FILE), `${JSON.stringify(info)}\n`);
  const head = checksumsHead({ generation: opts.generation, createdAt: opts.now, keyId: info.key_id });
  const found = await listTree(genDir, SELF_FILES);
  const knownLines = opts.known?.(found.map((f) => f.path)) ?? [];
  const lines = new Array<string>(found.length);
  const limit = pLimit(8);
  const reads: Promise<void>[] = [];
  for (let i = 0; i < found.length; i++) {
    const { path, file } = found[i]!;
    if (!file) throw new AtlasError('internal', `publish: ${path} in the generation is not a regular file; it cannot be sealed`);
    // A known line names its own path (a lookup by path) and was checked when it was made.
    const line = knownLines[i];
    if (line !== undefined) lines[i] = line;
    else
      reads.push(
        limit(async () => {
          const abs = `${genDir}/${path}`;
          const f = { path, ...(await hashFile(abs, (await lstat(abs)).size)) };
          checkEntry(f, null);
          lines[i] = entryLine(f);
        }),
      );
  }
  await Promise.all(reads);
  const bytes = checksumsBytesOf(head, lines);
  await writeFile(join(genDir, CHECKSUMS_FILE), bytes);
  // The signature is the seal mark (generation.ts isSealedGeneration): written to a temporary name
  // and renamed, so a process killed mid-write leaves no signature rather than a torn one.
  const sigTmp = join(genDir, `.${CHECKSUMS_SIG_FILE}.tmp`);
  await writeFile(sigTmp, `${signBytes(opts.key.privateKey, bytes)}\n`);
  await rename(sigTmp, join(genDir, CHECKSUMS_SIG_FILE));
  return { files: lines.length, keyId: info.key_id };
}
