import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project's own folder: tracked inputs (listings, roadmap, samples) are read from here whatever --data says. */
export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const PROJECT_DATA = join(PROJECT_ROOT, 'data');
/**
 * Default of config `paths.listings`: the reviewed listing files, a tracked input, so a relative
 * value is resolved against the project root (not the working directory or --data).
 */
export const DEFAULT_LISTINGS_DIR = 'data/listings';

export interface Paths {
  /** Runtime state folder (--data). */
  data: string;
  db: string;
  publicDir: string;
  inbox: string;
  secret: string;
  /** The Ed25519 key that signs each published generation's checksums (signing-key.ts). */
  signingKey: string;
  /** Researchers' read-only copy, replaced atomically. */
  snapshot: string;
  /** Reviewed listing files (config `paths.listings`), read by `atlas cycle` and `atlas ingest listings`. */
  listings: string;
  roadmap: string;
  samples: string;
}

/** `listings`: config `paths.listings` (absolute, or relative to the project root). */
export function resolvePaths(dataDir: string, listings: string = DEFAULT_LISTINGS_DIR): Paths {
  const data = resolve(dataDir);
  return {
    data,
    db: join(data, 'atlas.duckdb'),
    publicDir: join(data, 'public'),
    inbox: join(data, 'inbox'),
    secret: join(data, 'secret'),
    signingKey: join(data, 'signing-key.pem'),
    snapshot: join(data, 'snapshots', 'atlas-snapshot.duckdb'),
    listings: resolve(PROJECT_ROOT, listings),
    roadmap: join(PROJECT_DATA, 'roadmap.json'),
    samples: join(PROJECT_DATA, 'samples'),
  };
}
