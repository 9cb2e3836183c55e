import { CHECKSUMS_FORMAT, type ChecksumEntry, Checksums, SHA256_HEX } from '../../site/contract/signing.ts';

/**
 * The signed checksum list of a generation, pure parts (docs/notes/publish.md "Signed checksums"):
 * building the list, its canonical bytes (what the signature covers), and comparing a list with
 * the files found in a tree. Hashing, signing and file access live in seal.ts and verify-tree.ts.
 */
export const CHECKSUMS_FILE = 'checksums.json';
export const CHECKSUMS_SIG_FILE = 'checksums.json.sig';
export const SIGNING_KEY_FILE = 'atlas-signing-key.json';

/** The two files the list cannot contain: itself and its detached signature. */
export const SELF_FILES: ReadonlySet<string> = new Set([CHECKSUMS_FILE, CHECKSUMS_SIG_FILE]);

/** A file found in a tree: `other` is anything but a regular file (symlink, socket, ...), never read. */
export interface FoundFile {
  path: string;
  kind: 'file' | 'other';
  bytes: number;
  sha256: string | null;
}

export type ProblemKind =
  | 'checksums' // checksums.json missing or not in the format
  | 'signature' // signature or public key missing, malformed, or not matching
  | 'bad_entry' // a listed path that is not a plain relative path inside the tree
  | 'duplicate_entry'
  | 'missing' // listed, not present
  | 'size_mismatch'
  | 'hash_mismatch'
  | 'not_a_file' // listed, but a symlink or other non-regular file
  | 'unlisted'; // present, not listed

export interface Problem {
  path: string;
  problem: ProblemKind;
  detail: string;
}

/**
 * A path as listed: relative to the generation root, `/`-separated, no empty, `.` or `..` segment,
 * no backslash or NUL. A verifier must refuse any other listed path before touching the disk.
 */
export function isTreePath(p: string): boolean {
  if (p.length === 0 || p.length > 4096 || p.startsWith('/') || p.includes('\\') || p.includes('\u0000')) return false;
  return p.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}

/** Plain code-unit order (never locale order), so every implementation sorts the list the same way. */
export const comparePaths = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The checksum list of a generation from its hashed files: the list's own two files are left out,
 * entries are sorted by path; an unsafe or duplicate path is a publishing bug and throws.
 */
export function buildChecksums(input: { generation: string; createdAt: Date; keyId: string; files: readonly ChecksumEntry[] }): Checksums {
  const files = input.files
    .filter((f) => !SELF_FILES.has(f.path))
    .map((f) => ({ path: f.path, bytes: f.bytes, sha256: f.sha256 }))
    .sort((a, b) => comparePaths(a.path, b.path));
  for (let i = 0; i < files.length; i++) {
    const f = files[i]!;
    checkEntry(f, i > 0 ? files[i - 1]!.path : null);
  }
  return { ...checksumsHead(input), files };
}

/** The header members of a list, through the schema (the entries are checked one by one: checkEntry). */
export function checksumsHead(input: { generation: string; createdAt: Date; keyId: string }): Omit<Checksums, 'files'> {
  const { files: _, ...head } = Checksums.parse({
    format: CHECKSUMS_FORMAT,
    generation: input.generation,
    created_at: input.createdAt.toISOString(),
    key_id: input.keyId,
    files: [],
  });
  return head;
}

/**
 * An entry of a list being built, after the entry `before` (null for the first): a tree path after
 * `before` in comparePaths order, a size and a SHA-256; anything else is a publishing bug and
 * throws. There are two entries per service, so they go through isChecksumEntry, the schema's
 * constraints as a plain predicate (a zod parse of each would cost a visible share of the seal).
 */
export function checkEntry(f: ChecksumEntry, before: string | null): void {
  if (!isTreePath(f.path)) throw new Error(`checksums: not a tree path: ${JSON.stringify(f.path)}`);
  if (before !== null && comparePaths(before, f.path) >= 0)
    throw new Error(before === f.path ? `checksums: listed twice: ${f.path}` : `checksums: out of order: ${f.path} after ${before}`);
  if (!isChecksumEntry(f)) throw new Error(`checksums: not a size and SHA-256: ${JSON.stringify(f)}`);
}

/**
 * ChecksumEntry's constraints (site/contract/signing.ts) as a plain predicate, for lists of 200,000
 * entries; test/pipeline/publish/checksums.test.ts holds the two equal on generated cases. The path
 * must also be a tree path (isTreePath), a stricter rule than the schema's non-empty string.
 */
export function isChecksumEntry(f: { path?: unknown; bytes?: unknown; sha256?: unknown }): f is ChecksumEntry {
  return (
    typeof f.path === 'string' &&
    f.path.length > 0 &&
    Number.isSafeInteger(f.bytes) &&
    (f.bytes as number) >= 0 &&
    typeof f.sha256 === 'string' &&
    SHA256_HEX.test(f.sha256)
  );
}

/** Printable ASCII without `"` and `\`: JSON.stringify writes such a string as it is, between quotes. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
const jsonString = (s: string) => (PLAIN.test(s) ? `"${s}"` : JSON.stringify(s));

/**
 * The canonical bytes of a checksum list, which are exactly the bytes of `checksums.json` and what
 * the signature covers: UTF-8 JSON, members in the order format, generation, created_at, key_id,
 * files; each entry `{"path","bytes","sha256"}` on its own line (entryLine); a final newline. A
 * verifier checks the signature over the file's bytes as found and needs no re-serialisation.
 */
export function checksumsBytes(c: Checksums): Buffer {
  return checksumsBytesOf(c, c.files.map(entryLine));
}

/** The canonical bytes from a list's header members and its entries' lines (entryLine), in order. */
export function checksumsBytesOf(head: Omit<Checksums, 'files'>, lines: readonly string[]): Buffer {
  const s = JSON.stringify;
  const top = `{"format":${s(head.format)},"generation":${s(head.generation)},"created_at":${s(head.created_at)},"key_id":${s(head.key_id)},"files":[`;
  return Buffer.from(`${top}${lines.length ? `\n${lines.join(',\n')}\n` : ''}]}\n`, 'utf8');
}

/** One entry's line in the canonical bytes (without the comma that separates it from the next). */
export function entryLine(f: ChecksumEntry): string {
  // The same bytes as JSON.stringify of each member, without a call per member where none is needed.
  return `{"path":${jsonString(f.path)},"bytes":${JSON.stringify(f.bytes)},"sha256":${jsonString(f.sha256)}}`;
}

/**
 * The entry lines of a list's text, looked up in path order: what the seal of the next generation
 * reuses for the files it hard-links from this one (a linked file is the same inode, byte-identical
 * by construction). `find(path)` gives the line of `path` exactly as entryLine writes its entry, or
 * undefined; the paths asked for must come in increasing comparePaths order (the list's own order,
 * and a walked tree's), so the lookup is a single pass over the list and builds no index (a map of
 * two entries per service costs more than the pass). A line in the plain form (a printable ASCII path, a
 * size without leading zeros, a lowercase SHA-256) is kept as it is, checked by one regular
 * expression; any other is parsed as JSON, checked (isChecksumEntry, isTreePath) and written again;
 * what is neither is passed over (its file is then hashed), as is a list out of order.
 */
export function entryLineFinder(text: string): (path: string) => string | undefined {
  const raw = text.split('\n');
  let i = 0;
  const next = (): readonly [string, string] | null => {
    while (i < raw.length) {
      const r = raw[i++]!;
      if (!r.startsWith('{"path":')) continue;
      const line = r.endsWith(',') ? r.slice(0, -1) : r;
      if (PLAIN_ENTRY.test(line)) return [line.slice(9, line.indexOf('"', 9)), line];
      try {
        const f = JSON.parse(line) as Partial<ChecksumEntry>;
        if (isChecksumEntry(f) && isTreePath(f.path)) return [f.path, entryLine(f)];
      } catch {
        // not an entry: its file is hashed
      }
    }
    return null;
  };
  let head = next();
  return (path) => {
    while (head && comparePaths(head[0], path) < 0) head = next();
    return head && head[0] === path ? head[1] : undefined;
  };
}

const PLAIN_ENTRY = /^\{"path":"[\x20\x21\x23-\x5b\x5d-\x7e]+","bytes":(?:0|[1-9]\d{0,14}),"sha256":"[0-9a-f]{64}"\}$/;

export type Parsed = { ok: true; value: Checksums } | { ok: false; error: string };

export function parseChecksums(bytes: Uint8Array): Parsed {
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    return { ok: false, error: 'not valid JSON' };
  }
  const r = Checksums.safeParse(v);
  if (!r.success) {
    const i = r.error.issues[0];
    return {
      ok: false,
      error: `not in the ${CHECKSUMS_FORMAT} format (${i ? `${i.path.join('.') || '(root)'}: ${i.message}` : 'invalid'})`,
    };
  }
  return { ok: true, value: r.data };
}

/**
 * Compare a checksum list with the files found in the tree: every listed file present, a regular
 * file, of the listed size and SHA-256; no file present that is not listed (the list's own two
 * files excepted). Problems come sorted by path, listed-side problems first for a path.
 */
export function compareFiles(listed: readonly ChecksumEntry[], found: readonly FoundFile[]): Problem[] {
  const problems: Problem[] = [];
  const present = new Map(found.map((f) => [f.path, f]));
  const seen = new Set<string>();
  for (const e of listed) {
    if (!isTreePath(e.path) || SELF_FILES.has(e.path)) {
      problems.push({ path: e.path, problem: 'bad_entry', detail: 'listed path is not a file path inside the tree; not checked' });
      continue;
    }
    if (seen.has(e.path)) {
      problems.push({ path: e.path, problem: 'duplicate_entry', detail: 'listed more than once' });
      continue;
    }
    seen.add(e.path);
    const f = present.get(e.path);
    if (!f) problems.push({ path: e.path, problem: 'missing', detail: 'listed but not present' });
    else if (f.kind !== 'file')
      problems.push({ path: e.path, problem: 'not_a_file', detail: 'listed as a file but is not a regular file' });
    else if (f.bytes !== e.bytes)
      problems.push({ path: e.path, problem: 'size_mismatch', detail: `listed ${e.bytes} bytes, found ${f.bytes} bytes` });
    else if (f.sha256 !== e.sha256)
      problems.push({ path: e.path, problem: 'hash_mismatch', detail: `SHA-256 differs (listed ${e.sha256}, found ${f.sha256})` });
  }
  for (const f of found) {
    if (seen.has(f.path) || SELF_FILES.has(f.path)) continue;
    problems.push({
      path: f.path,
      problem: 'unlisted',
      detail: f.kind === 'file' ? 'present but not listed' : 'present (not a regular file) but not listed',
    });
  }
  return problems.sort((a, b) => comparePaths(a.path, b.path));
}
