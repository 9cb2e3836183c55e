import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project's own folder: tracked inputs (listings, roadmap, samples) are read from here whatever --data says. */
export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const PROJECT_DATA = join(PROJECT_ROOT, 'data');

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
  listings: string;
  roadmap: string;
  samples: string;
}

export function resolvePaths(dataDir: string): Paths {
  const data = resolve(dataDir);
  return {
    data,
    db: join(data, 'atlas.duckdb'),
    publicDir: join(data, 'public'),
    inbox: join(data, 'inbox'),
    secret: join(data, 'secret'),
    signingKey: join(data, 'signing-key.pem'),
    snapshot: join(data, 'snapshots', 'atlas-snapshot.duckdb'),
    listings: join(PROJECT_DATA, 'listings'),
    roadmap: join(PROJECT_DATA, 'roadmap.json'),
    samples: join(PROJECT_DATA, 'samples'),
  };
}
