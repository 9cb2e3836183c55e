import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { AtlasError } from '../../core/errors.ts';
import { ListingSchema, type Listing } from './schema.ts';

/**
 * Listing files → valid listings and rejected files. Pure over the file contents: each rejected
 * file carries its path and one entry per problem with the zod path (`operations.0.url`).
 * Rules beyond the schema: the file is named after the id (`svc_foo` ↔ `foo.json`), ids are unique.
 */
export interface ListingIssue {
  path: string;
  message: string;
}
export interface RejectedListing {
  file: string;
  /** The id the file claims, when one can be read (its service is then never deactivated by this run). */
  claimedId: string | null;
  issues: ListingIssue[];
}
export interface ValidListing {
  file: string;
  listing: Listing;
}
export interface ListingSet {
  files: number;
  valid: ValidListing[];
  rejected: RejectedListing[];
}

const issuePath = (p: ReadonlyArray<PropertyKey>): string => (p.length ? p.map(String).join('.') : '(root)');

export function parseListingText(file: string, text: string): ValidListing | RejectedListing {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return { file, claimedId: null, issues: [{ path: '(root)', message: `not valid JSON: ${(e as Error).message}` }] };
  }
  const idGuess =
    doc && typeof doc === 'object' && typeof (doc as { id?: unknown }).id === 'string' ? ((doc as { id: string }).id as string) : null;
  const fromName = `svc_${basename(file).replace(/\.json$/i, '')}`;
  const r = ListingSchema.safeParse(doc);
  if (!r.success) {
    return { file, claimedId: idGuess ?? fromName, issues: r.error.issues.map((i) => ({ path: issuePath(i.path), message: i.message })) };
  }
  if (r.data.id !== fromName) {
    return { file, claimedId: r.data.id, issues: [{ path: 'id', message: `must match the file name (expected ${fromName})` }] };
  }
  return { file, listing: r.data };
}

export function readListingDir(dir: string): ListingSet {
  let names: string[];
  try {
    if (!statSync(dir).isDirectory()) throw new Error('not a directory');
    names = readdirSync(dir)
      .filter((n) => n.toLowerCase().endsWith('.json') && !n.startsWith('.'))
      .sort();
  } catch (e) {
    throw new AtlasError('bad_usage', `listing folder ${dir} cannot be read (${(e as Error).message})`);
  }
  const set: ListingSet = { files: names.length, valid: [], rejected: [] };
  const byId = new Map<string, string>();
  for (const name of names) {
    const file = join(dir, name);
    const parsed = parseListingText(file, readFileSync(file, 'utf8'));
    if ('issues' in parsed) {
      set.rejected.push(parsed);
      continue;
    }
    const dup = byId.get(parsed.listing.id);
    if (dup) {
      set.rejected.push({ file, claimedId: parsed.listing.id, issues: [{ path: 'id', message: `duplicate of ${dup}` }] });
      continue;
    }
    byId.set(parsed.listing.id, file);
    set.valid.push(parsed);
  }
  return set;
}

/** One line per rejected file: `path: zod.path: message; zod.path: message`. */
export const formatRejected = (r: RejectedListing): string => `${r.file}: ${r.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`;
