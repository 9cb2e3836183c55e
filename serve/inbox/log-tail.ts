import { open, readdir } from 'node:fs/promises';
import { INBOX_KINDS, type InboxKind, LOG_FILE_RE } from '../../site/contract/inbox-records.ts';

/**
 * Reading the inbox logs from a remembered byte offset (docs/notes/replicas.md): the server reads
 * every log whole at start, then follows the other replicas' logs by reading only what was
 * appended since. What is done with the lines lives in serve/inbox/write-store.ts.
 */

/** One log in the inbox folder: `<kind>-<replica>.jsonl`. */
export interface LogFile {
  name: string;
  kind: InboxKind;
  replica: string;
}

/**
 * The logs among `names`, keys first, then outcomes, then feedback (INBOX_KINDS order), each kind
 * by file name. Keys come first so that whoever sees a report has seen the key that sent it, and a
 * key seen by a poll implies every report written before that key was created is seen too (the
 * follower lists the folder again before each kind, so this holds for a log created meanwhile).
 */
export function logFiles(names: readonly string[]): LogFile[] {
  const out: LogFile[] = [];
  for (const name of names) {
    const m = LOG_FILE_RE.exec(name);
    if (m) out.push({ name, kind: m[1] as InboxKind, replica: m[2]! });
  }
  const order = (k: InboxKind) => INBOX_KINDS.indexOf(k);
  return out.sort((a, b) => order(a.kind) - order(b.kind) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * The complete lines of `buf` (bytes read from a log at some offset) and how many bytes they take.
 * Bytes after the last newline (a line still being written, or torn by a crash) are not consumed:
 * they are read again next time, until their newline arrives. Splitting on the byte 0x0a is safe in
 * UTF-8 (no multi-byte character contains it). Blank lines are dropped.
 */
export function completeLines(buf: Buffer): { lines: string[]; consumed: number } {
  const last = buf.lastIndexOf(0x0a);
  if (last < 0) return { lines: [], consumed: 0 };
  const lines = buf
    .toString('utf8', 0, last)
    .split('\n')
    .filter((l) => l.trim() !== '');
  return { lines, consumed: last + 1 };
}

/** What a read from an offset found: the bytes from there to the end, or that the file got shorter. */
export type TailRead = { shrunk: false; bytes: Buffer } | { shrunk: true; size: number };

/** The folder's entries; a missing folder is an empty inbox. */
export async function listInbox(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
}

/**
 * The bytes of `path` from `offset` to its current end; null when the file is gone. Opening the
 * file for every read (rather than keeping it open, or a bare stat) makes an NFS client revalidate
 * its cached attributes and data.
 */
export async function readFrom(path: string, offset: number): Promise<TailRead | null> {
  let fh: Awaited<ReturnType<typeof open>>;
  try {
    fh = await open(path, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  try {
    const size = (await fh.stat()).size;
    if (size < offset) return { shrunk: true, size };
    const bytes = Buffer.alloc(size - offset);
    let got = 0;
    while (got < bytes.length) {
      const { bytesRead } = await fh.read(bytes, got, bytes.length - got, offset + got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    return { shrunk: false, bytes: bytes.subarray(0, got) };
  } finally {
    await fh.close();
  }
}
