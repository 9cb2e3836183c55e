import type { Bits } from './bitset.ts';
import { wordsFor } from './bitset.ts';
import type { EnumName, RangeName } from './filters.ts';
import type { CompiledNetworks } from './networks.ts';
import type { SearchRow } from './row.ts';
import { freshWindowMs } from './freshness.ts';
import { buildSearchIndex, type SearchIndex } from './indexes.ts';

/**
 * The search fields of every row as flat typed arrays indexed by row position (column layout).
 * The row predicate (filter.ts) reads these instead of chasing row objects across the heap, and
 * the per-generation indexes (indexes.ts) are built from them, so a search tests only the rows its
 * filters' indexes leave. Nulls: NaN in float columns, -1 in tri-state columns.
 */
export interface Columns {
  n: number;
  /** One column per enum and range filter (filters.ts FILTERS), by filter name. */
  enums: Record<EnumName, Int8Array>;
  ranges: Record<RangeName, Float64Array>;
  criteriaExceptFresh: Uint8Array;
  /** Latest check time in ms (NaN: never checked) and twice the interval in ms: fresh iff now - last <= 2 intervals. */
  lastCheckMs: Float64Array;
  twoIntervalsMs: Float64Array;
  /** Host as a small integer (group=provider), the distinct hosts, and each host's id. */
  hostId: Int32Array;
  hosts: string[];
  hostIds: Map<string, number>;
  /**
   * The distinct offered-network sets and tag lists, and each row's: the network and tag filters
   * are decided once per distinct value per search, then read per row as one byte.
   */
  networkSet: Int32Array;
  networkSets: CompiledNetworks[];
  tagList: Int32Array;
  tagLists: string[][];
  /** Every row's lower-cased haystack (`name host url operator`, NUL read as a space): what `q` words must occur in. */
  hay: string[];
  /**
   * The same haystacks joined with NUL separators, and where each row's part starts (n + 1
   * entries): a word too short for the trigram index is found with one native `indexOf` walk over
   * this one string instead of 100k separate substring searches.
   */
  haystack: string;
  hayStart: Int32Array;
  /** Indexes over these columns, built with them (indexes.ts); a search narrows its candidates with them. */
  index: SearchIndex;
  /** The generation's two scratch bitsets for a search (filter.ts matchBits; a search is synchronous). */
  scratch: { acc: Bits; tmp: Bits };
}

/** The id of `value` among `values` (appended on first sight), by a key equal for equal values. */
function distinct<T>(ids: Map<string, number>, values: T[], key: string, value: T): number {
  let id = ids.get(key);
  if (id === undefined) {
    id = values.length;
    ids.set(key, id);
    values.push(value);
  }
  return id;
}

type SharedColumns = Pick<Columns, 'hostId' | 'hosts' | 'hostIds' | 'networkSet' | 'networkSets' | 'tagList' | 'tagLists'>;

/** Hosts, network sets and tag lists as ids of distinct values; rows are pointed at the shared copies. */
function sharedColumns(rows: SearchRow[]): SharedColumns {
  const n = rows.length;
  const c: SharedColumns = {
    hostId: new Int32Array(n),
    hosts: [],
    hostIds: new Map(),
    networkSet: new Int32Array(n),
    networkSets: [],
    tagList: new Int32Array(n),
    tagLists: [],
  };
  const networkSetIds = new Map<string, number>();
  const tagListIds = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const r = rows[i]!;
    c.hostId[i] = distinct(c.hostIds, c.hosts, r.host, r.host);
    const netKey = `${r.networks.ids.join('\u0000')}\u0001${r.networks.names.join('\u0000')}`;
    c.networkSet[i] = distinct(networkSetIds, c.networkSets, netKey, r.networks);
    c.tagList[i] = distinct(tagListIds, c.tagLists, r.tags.join('\u0000'), r.tags);
    // Rows share the one copy of each distinct value (equal by the key above), so the per-row
    // copies parsed from the index are garbage once the generation is loaded.
    r.networks = c.networkSets[c.networkSet[i]!]!;
    r.tags = c.tagLists[c.tagList[i]!]!;
  }
  return c;
}

/** The lower-cased haystacks, one by one and joined (Columns.hay, haystack, hayStart). */
function textColumns(haystacks: readonly string[]): Pick<Columns, 'hay' | 'haystack' | 'hayStart'> {
  const n = haystacks.length;
  const hay: string[] = new Array(n);
  const hayStart = new Int32Array(n + 1);
  let offset = 0;
  for (let i = 0; i < n; i++) {
    hay[i] = haystacks[i]!.toLowerCase().replaceAll('\u0000', ' ');
    hayStart[i] = offset;
    offset += hay[i]!.length + 1;
  }
  hayStart[n] = offset;
  return { hay, haystack: `${hay.join('\u0000')}\u0000`, hayStart };
}

/**
 * `haystacks[i]` is the published search haystack (`search.haystack`) of the record `rows[i]` was
 * compiled from, and `filters` the enum and range columns written from those records (compile.ts).
 * Part of loading a generation: rows' `networks` and `tags` are replaced by the shared distinct values.
 */
export function buildColumns(rows: SearchRow[], haystacks: readonly string[], filters: Pick<Columns, 'enums' | 'ranges'>): Columns {
  const n = rows.length;
  const c: Omit<Columns, 'index' | 'scratch'> = {
    n,
    ...filters,
    criteriaExceptFresh: Uint8Array.from(rows, (r) => (r.criteriaExceptFresh ? 1 : 0)),
    lastCheckMs: Float64Array.from(rows, (r) => r.lastCheckMs ?? NaN),
    twoIntervalsMs: Float64Array.from(rows, (r) => freshWindowMs(r.intervalHours)),
    ...sharedColumns(rows),
    ...textColumns(haystacks),
  };
  const words = wordsFor(n);
  return { ...c, index: buildSearchIndex(c), scratch: { acc: new Uint32Array(words), tmp: new Uint32Array(words) } };
}
