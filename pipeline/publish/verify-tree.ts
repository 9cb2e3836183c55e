import type { KeyObject } from 'node:crypto';
import { existsSync, lstatSync, realpathSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AtlasError } from '../core/errors.ts';
import { keyIdOf, parsePublicKey, rawPublicKey, verifyBytes } from '../core/signing-key.ts';
import {
  CHECKSUMS_FILE,
  CHECKSUMS_SIG_FILE,
  compareFiles,
  parseChecksums,
  type Problem,
  SELF_FILES,
  SIGNING_KEY_FILE,
} from './checksums.ts';
import { CURRENT } from './generation.ts';
import { scanTree } from './seal.ts';

export interface TreeVerification {
  ok: boolean;
  /** The generation folder checked (DIR itself, or what DIR/current points to). */
  root: string;
  generation: string | null;
  /** The key the signature was checked with: given by the caller (pinned) or read from the tree. */
  key: { key_id: string; source: 'pinned' | 'tree' } | null;
  /** Files listed in checksums.json. */
  listed: number;
  problems: Problem[];
}

/**
 * DIR is a generation folder (holds checksums.json), or a public folder whose `current` pointer
 * names one. Anything else that exists is checked as given (and fails for lack of checksums.json).
 */
export function resolveTreeRoot(dir: string): string {
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(dir);
  } catch {
    throw new AtlasError('invalid_input', `--tree ${dir}: no such directory`);
  }
  if (!st.isDirectory()) throw new AtlasError('invalid_input', `--tree ${dir}: not a directory`);
  if (!existsSync(join(dir, CHECKSUMS_FILE)) && existsSync(join(dir, CURRENT))) return realpathSync(join(dir, CURRENT));
  return dir;
}

async function readRegular(path: string): Promise<Buffer | null> {
  try {
    if (!lstatSync(path).isFile()) return null;
    return await readFile(path);
  } catch {
    return null;
  }
}

/**
 * Check a downloaded tree offline (`atlas verify --tree`): the Ed25519 signature over the exact
 * bytes of checksums.json, with `opts.publicKey` when the caller pinned one, else with the key
 * published inside the tree (which proves only that the tree is intact as published, not who
 * published it); then every listed file's size and SHA-256, and that no unlisted file is present.
 * File checks run even when the signature fails, so every problem is reported at once. A listed
 * path that leaves the tree is refused without touching the disk; symlinks are never followed.
 */
export async function verifyTree(dir: string, opts: { publicKey?: KeyObject } = {}): Promise<TreeVerification> {
  const root = resolveTreeRoot(dir);
  const problems: Problem[] = [];
  const done = (generation: string | null, key: TreeVerification['key'], listed: number): TreeVerification => ({
    ok: problems.length === 0,
    root,
    generation,
    key,
    listed,
    problems,
  });

  const bytes = await readRegular(join(root, CHECKSUMS_FILE));
  if (!bytes) {
    problems.push({ path: CHECKSUMS_FILE, problem: 'checksums', detail: 'missing (or not a regular file): nothing can be verified' });
    return done(null, null, 0);
  }
  const parsed = parseChecksums(bytes);
  if (!parsed.ok) {
    problems.push({ path: CHECKSUMS_FILE, problem: 'checksums', detail: parsed.error });
    return done(null, null, 0);
  }
  const checksums = parsed.value;

  let key: KeyObject | null = opts.publicKey ?? null;
  const source = opts.publicKey ? 'pinned' : 'tree';
  if (!key) {
    const text = await readRegular(join(root, SIGNING_KEY_FILE));
    if (!text) problems.push({ path: SIGNING_KEY_FILE, problem: 'signature', detail: 'missing, and no public key was given' });
    else {
      try {
        key = parsePublicKey(text.toString('utf8'));
      } catch (e) {
        problems.push({ path: SIGNING_KEY_FILE, problem: 'signature', detail: `unusable: ${(e as Error).message}` });
      }
    }
  }
  const keyId = key ? keyIdOf(rawPublicKey(key)) : null;
  const sig = await readRegular(join(root, CHECKSUMS_SIG_FILE));
  if (!sig) problems.push({ path: CHECKSUMS_SIG_FILE, problem: 'signature', detail: 'missing (or not a regular file)' });
  else if (key && !verifyBytes(key, bytes, sig.toString('utf8'))) {
    const named = checksums.key_id === keyId ? '' : `; checksums.json names key ${checksums.key_id}`;
    problems.push({
      path: CHECKSUMS_SIG_FILE,
      problem: 'signature',
      detail: `not a valid signature of checksums.json by the ${source === 'pinned' ? 'given' : "tree's"} key ${keyId}${named}`,
    });
  }

  problems.push(...compareFiles(checksums.files, await scanTree(root, { skip: SELF_FILES })));
  return done(checksums.generation, keyId ? { key_id: keyId, source } : null, checksums.files.length);
}
