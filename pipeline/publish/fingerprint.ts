import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dayRange } from '../../site/contract/daily-series.ts';
import { dailyWindow } from './sql.ts';

/**
 * Per-service fingerprints: what lets a generation write only what changed since the previous one
 * (docs/notes/incremental-publish.md). A service's fingerprint is a hash over every input of its
 * files as publish stages them (its summary row and every detail part, already cut to the windows
 * at the publish instant, sql.ts) plus a salt naming everything else the bytes depend on: the code
 * that shapes and renders them, whether `schedule_tier` is still served, the base URL and whether
 * pages are written. Equal fingerprint ⇒ the service's detail file, its page and its index record
 * are byte-identical to the previous generation's, which are then shared (hard links) instead of
 * rendered again. The decision is made from content, never from timestamps or change flags. Values
 * that move for every service merely because time passes or an hourly evaluation ran
 * (`evidence.monitoring_days`, the full evaluation's instant in `directory.evaluated_at`,
 * `payment_terms.window_start` once tracking is past 90 days) are not staged, so they are not in any
 * fingerprint: the server adds them.
 *
 * The daily series moves at UTC midnight. Each service has a second, next-day fingerprint: the same
 * hash with the oldest day of the series left out. A publish on the next UTC day compares its
 * fingerprints with those: equal means the checks over the days both series hold are the same and
 * there are none yet on the new day, so the file's series, re-windowed by the server
 * (site/contract/daily-series.ts), is what a new render would give, and the file is shared. Without
 * it the first publish of every UTC day rendered every service (a full publish in the five-minute
 * cycle). The static page of such a service keeps the chart of the day it was rendered (its caption
 * names the days).
 */

/** Relative path of the fingerprint list inside a generation (sealed with the rest). */
export const FINGERPRINTS_FILE = 'index/fingerprints.txt';
export const FINGERPRINTS_FORMAT = 'atlas-fingerprints/2';

/**
 * After staging the keys (with the summary row's hash) and hashing the detail parts (sql.ts,
 * `<part>_h`): one row per service with its fingerprint. Each part contributes the sum of its rows'
 * hashes (order-free; the renderers order the rows by content) and the ordinal and the index bucket
 * are left out, so inserting a service does not change its neighbours (the bucket bits are in the
 * salt). The daily series is hashed from the
 * raw checks of its window (`dailyWindow`, the same definition its staging uses): their checked_at,
 * passed and latency_ms determine each day's count, passes and median latency, so equal sums mean
 * an equal series, and the medians are computed only for the services rendered. Two 64-bit hashes
 * with different salts make a 128-bit fingerprint; `fp_next` is the same with the checks of the
 * series' first day ($2) left out.
 * $1: the salt; $2: the series' first day (YYYY-MM-DD); $3: the publish instant; $4: the series' days.
 */
export const FINGERPRINT_SQL = `
CREATE OR REPLACE TEMP TABLE pub_fp AS
WITH
sh AS (SELECT ord, bucket, id, in_directory, h FROM pub_keys),
d AS (SELECT c.service_id, sum(hash(c.checked_at, c.passed, c.latency_ms)) AS h,
        sum(hash(c.checked_at, c.passed, c.latency_ms)) FILTER (WHERE c.checked_at >= $2::DATE + INTERVAL 1 DAY) AS h_next
      FROM checks c WHERE ${dailyWindow('$3', '$4')} GROUP BY c.service_id),
o AS (FROM pub_ops_h), r AS (FROM pub_recent_h), i AS (FROM pub_intervals_h), c AS (FROM pub_terms_changes_h),
l AS (FROM pub_terms_latest_h)
SELECT sh.ord, sh.bucket, sh.id, coalesce(sh.in_directory, false) AS in_directory,
  printf('%016x%016x', hash($1::VARCHAR, sh.h, o.h, r.h, coalesce(d.h, 0)::HUGEINT, i.h, c.h, l.h),
    hash($1::VARCHAR || '/2', sh.h, o.h, r.h, coalesce(d.h, 0)::HUGEINT, i.h, c.h, l.h)) AS fp,
  printf('%016x%016x', hash($1::VARCHAR, sh.h, o.h, r.h, coalesce(d.h_next, 0)::HUGEINT, i.h, c.h, l.h),
    hash($1::VARCHAR || '/2', sh.h, o.h, r.h, coalesce(d.h_next, 0)::HUGEINT, i.h, c.h, l.h)) AS fp_next
FROM sh
LEFT JOIN o ON o.service_id = sh.id LEFT JOIN r ON r.service_id = sh.id LEFT JOIN d ON d.service_id = sh.id
LEFT JOIN i ON i.service_id = sh.id LEFT JOIN c ON c.service_id = sh.id LEFT JOIN l ON l.service_id = sh.id
ORDER BY sh.ord`;

/** A service as the fingerprint step reads it back: its place, its fingerprints and the keys of the static list. */
export interface FingerprintRow {
  ord: number;
  bucket: number;
  id: string;
  in_directory: boolean;
  fp: string;
  fp_next: string;
  checks_30d: number;
  monitoring_since: string | null;
}

/**
 * Every service's FingerprintRow in ordinal order as one text, a line per service: seven fields
 * separated by spaces (numbers, booleans, hex and ISO instants, none holding a space; `-` stands for
 * no monitoring_since), then the id as a JSON string (the store may hold any id: the renderer skips
 * an invalid one, and it must reach the renderer intact). One string to decode instead of eight
 * values per service: read as rows, the decoding cost a visible share of a publish.
 */
export const FINGERPRINT_ROWS_SQL = `SELECT string_agg(concat_ws(' ', f.ord, f.bucket, f.in_directory, f.fp, f.fp_next,
  k.checks_30d::BIGINT, coalesce(k.monitoring_since, '-'), to_json(f.id)), chr(10) ORDER BY f.ord) AS t
FROM pub_fp f JOIN pub_keys k ON k.ord = f.ord`;

/** FINGERPRINT_ROWS_SQL's text as rows (null: no service); a line of another shape is a bug and throws. */
export function fingerprintRows(text: string | null): FingerprintRow[] {
  if (!text) return [];
  return text.split('\n').map((line) => {
    const f = line.split(' ', 7);
    const json = line.slice(f.join(' ').length + 1);
    if (f.length !== 7 || (f[2] !== 'true' && f[2] !== 'false') || !json.startsWith('"'))
      throw new Error(`publish: a fingerprint row of another shape: ${line}`);
    return {
      ord: Number(f[0]),
      bucket: Number(f[1]),
      id: json.includes('\\') ? (JSON.parse(json) as string) : json.slice(1, -1),
      in_directory: f[2] === 'true',
      fp: f[3]!,
      fp_next: f[4]!,
      checks_30d: Number(f[5]),
      monitoring_since: f[6] === '-' ? null : f[6]!,
    };
  });
}

/** FINGERPRINT_SQL's parameters after the salt. */
export const fingerprintParams = (salt: string, now: Date, days: number) => {
  const [first] = dayRange(now, days);
  return [salt, first!, now.toISOString(), days];
};

let codeHash: string | null = null;

/**
 * SHA-256 over the source of the code that shapes and renders published bytes (site/contract,
 * site/pages, pipeline/publish): a deploy that changes any of it renders every service again. When the
 * sources cannot be read (a bundled build), a random value: every publish is then a full one, which
 * is slower but never wrong.
 */
export function renderCodeHash(): string {
  if (codeHash) return codeHash;
  const site = dirname(dirname(fileURLToPath(import.meta.url)));
  const h = createHash('sha256');
  let files = 0;
  const walk = (dir: string): void => {
    if (!existsSync(dir)) return;
    for (const d of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(dir, d.name);
      if (d.isDirectory()) walk(p);
      else if (/\.(ts|js|mjs|sql|css)$/.test(d.name)) {
        h.update(`${relative(site, p)}\u0000`)
          .update(readFileSync(p))
          .update('\u0000');
        files += 1;
      }
    }
  };
  for (const part of ['contract', 'pages', 'publish']) walk(join(site, part));
  codeHash = files ? h.digest('hex') : createHash('sha256').update(String(Math.random())).digest('hex');
  return codeHash;
}

/** Everything, besides a service's own rows, that its published bytes depend on. */
export interface SaltInput {
  /** Whether the deprecated `schedule_tier` member is still written. */
  scheduleTier: boolean;
  pages: boolean;
  baseUrl: string;
  /** DuckDB's version: its hash function makes the fingerprints. */
  engine: string;
  /** Index bucket bits (site/contract/index-record.ts): another count moves every record to another bucket file. */
  bucketBits: number;
}

export function fingerprintSalt(s: SaltInput): string {
  const parts = [FINGERPRINTS_FORMAT, renderCodeHash(), s.scheduleTier, s.pages, s.baseUrl, s.engine, s.bucketBits];
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/** One published service's line: its id, its fingerprint and its next-day fingerprint. */
export type FingerprintEntry = readonly [id: string, fp: string, fpNext: string];

/**
 * The file's bytes: a header line with the format, the salt and the publish's UTC day (the last day
 * of its daily series), then `<id> <fingerprint> <next-day fingerprint>` per published service, by id.
 */
export function fingerprintsText(salt: string, day: string, entries: Iterable<FingerprintEntry>): string {
  const lines = [`${FINGERPRINTS_FORMAT} ${salt} ${day}`];
  for (const [id, fp, fpNext] of entries) lines.push(`${id} ${fp} ${fpNext}`);
  return `${lines.join('\n')}\n`;
}

/** The UTC day before `day` (YYYY-MM-DD). */
function dayBefore(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}

/**
 * What a publish on UTC day `day` compares its fingerprints with, from a generation made with the
 * same salt: the fingerprints when that generation is of the same day, the next-day fingerprints
 * when it is of the day before; null otherwise (no list, another format or salt, an older day:
 * nothing in it can be shared, the next generation is rendered in full).
 */
export async function readFingerprints(generationDir: string, salt: string, day: string): Promise<Map<string, string> | null> {
  let text: string;
  try {
    text = await readFile(join(generationDir, FINGERPRINTS_FILE), 'utf8');
  } catch {
    return null;
  }
  const nl = text.indexOf('\n');
  const header = text.slice(0, nl < 0 ? text.length : nl);
  const column =
    header === `${FINGERPRINTS_FORMAT} ${salt} ${day}` ? 1 : header === `${FINGERPRINTS_FORMAT} ${salt} ${dayBefore(day)}` ? 2 : 0;
  if (!column) return null;
  const lines = text.split('\n');
  const out = new Map<string, string>();
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line) continue;
    const parts = line.split(' ');
    if (parts.length !== 3 || !parts[0]) return null;
    out.set(parts[0], parts[column]!);
  }
  return out;
}
