import { linkSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ChecksumEntry } from '../contract/signing.ts';
import { CHECKSUMS_FILE, isChecksumEntry } from './checksums.ts';
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
 * The hard links of the previous generation's files that this one shares: made in the kernel, a few
 * microseconds each, and at 100,000 services there are 200,000 of them (detail files and pages).
 */
const LINK_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { linkSync } = require('node:fs');
const { from, to, rels } = workerData;
const ok = new Uint8Array(rels.length);
for (let i = 0; i < rels.length; i++) {
  try { linkSync(from + '/' + rels[i], to + '/' + rels[i]); ok[i] = 1; } catch { ok[i] = 0; }
}
parentPort.postMessage(ok, [ok.buffer]);
`;

/**
 * Hard-link many paths of generation `from` into `to` on a worker thread, while the publishing
 * thread renders the services that changed: for each path, in the order given, 1 when it was linked.
 * A synchronous loop is the fastest way to make the calls (0.9 s per 100,000 links here, against
 * 1.7-1.9 s through libuv's pool), and on its own thread it costs the renderer nothing. The worker
 * is plain JavaScript (evaluated, no loader needed). A worker that cannot run rejects.
 */
export function linkInBackground(from: string, to: string, rels: readonly string[]): Promise<Uint8Array> {
  if (rels.length === 0) return Promise.resolve(new Uint8Array(0));
  return new Promise<Uint8Array>((resolve, reject) => {
    const worker = new Worker(LINK_WORKER, { eval: true, workerData: { from, to, rels } });
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
 * The sealed size and SHA-256 of every file of a generation, by path, from its `checksums.json`:
 * what the seal of the next generation reuses for the files it links (a linked file is the same
 * inode, byte-identical by construction, so it need not be read again). Empty when the list cannot
 * be read (everything is then hashed). Each entry is checked (isChecksumEntry); the list's
 * signature was checked when it was sealed, and `atlas verify --tree` reads every file anyway.
 * Publish starts this while DuckDB stages, when its thread is idle.
 */
export async function sealedEntries(generationDir: string): Promise<Map<string, ChecksumEntry>> {
  const out = new Map<string, ChecksumEntry>();
  let text: string;
  try {
    text = await readFile(join(generationDir, CHECKSUMS_FILE), 'utf8');
  } catch {
    return out;
  }
  // One entry a line, members in checksumsBytes' order: the plain lines are read with one regular
  // expression (JSON.parse of the whole 28 MB list and its 208,000 objects cost about a second); a
  // line that does not match (a path with escapes) is parsed as JSON.
  for (const line of text.split('\n')) {
    if (!line.startsWith('{"path":')) continue;
    const m = ENTRY_LINE.exec(line);
    let f: Partial<ChecksumEntry>;
    if (m) f = { path: m[1]!, bytes: Number(m[2]), sha256: m[3]! };
    else {
      try {
        f = JSON.parse(line.endsWith(',') ? line.slice(0, -1) : line) as Partial<ChecksumEntry>;
      } catch {
        continue;
      }
    }
    if (isChecksumEntry(f)) out.set(f.path, { path: f.path, bytes: f.bytes, sha256: f.sha256 });
  }
  return out;
}

/** The sealed entries of `linked` paths only (those the previous list has). */
export function pickEntries(entries: ReadonlyMap<string, ChecksumEntry>, linked: Iterable<string>): Map<string, ChecksumEntry> {
  const out = new Map<string, ChecksumEntry>();
  for (const path of linked) {
    const e = entries.get(path);
    if (e) out.set(path, e);
  }
  return out;
}

const ENTRY_LINE = /^\{"path":"([\x20\x21\x23-\x5b\x5d-\x7e]*)","bytes":(\d{1,15}),"sha256":"([0-9a-f]{64})"\},?$/;
