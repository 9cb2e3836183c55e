import { SERVICE_TYPES } from '../../site/contract/common.ts';
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
  tier: Uint8Array; // 0 reviewed, 1 discovered
  type: Uint8Array; // index in TYPES
  mainnet: Int8Array; // the mainnet filter's side (SearchRow.mainnet): -1 neither, 0 test networks only, 1 a known mainnet
  latestPassed: Int8Array;
  templated: Uint8Array;
  listed: Int8Array;
  criteriaExceptFresh: Uint8Array;
  passRate: Float64Array;
  checks30d: Float64Array;
  monitoringDays: Float64Array;
  payers: Float64Array;
  price: Float64Array;
  termsChanges90d: Float64Array;
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
}

export const TYPES = SERVICE_TYPES;

const tri = (v: boolean | null): number => (v === null ? -1 : v ? 1 : 0);
const num = (v: number | null): number => (v === null ? NaN : v);

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

/**
 * `haystacks[i]` is the published search haystack (`search.haystack`) of the record `rows[i]` was
 * compiled from. Part of loading a generation: rows' `networks` and `tags` are replaced by the
 * shared distinct values.
 */
export function buildColumns(rows: SearchRow[], haystacks: readonly string[]): Columns {
  const n = rows.length;
  const c: Omit<Columns, 'index'> = {
    n,
    tier: new Uint8Array(n),
    type: new Uint8Array(n),
    mainnet: new Int8Array(n),
    latestPassed: new Int8Array(n),
    templated: new Uint8Array(n),
    listed: new Int8Array(n),
    criteriaExceptFresh: new Uint8Array(n),
    passRate: new Float64Array(n),
    checks30d: new Float64Array(n),
    monitoringDays: new Float64Array(n),
    payers: new Float64Array(n),
    price: new Float64Array(n),
    termsChanges90d: new Float64Array(n),
    lastCheckMs: new Float64Array(n),
    twoIntervalsMs: new Float64Array(n),
    hostId: new Int32Array(n),
    hosts: [],
    hostIds: new Map(),
    networkSet: new Int32Array(n),
    networkSets: [],
    tagList: new Int32Array(n),
    tagLists: [],
    hay: new Array(n),
    haystack: '',
    hayStart: new Int32Array(n + 1),
  };
  let offset = 0;
  const hostIds = c.hostIds;
  const networkSetIds = new Map<string, number>();
  const tagListIds = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const r = rows[i]!;
    c.tier[i] = r.tier === 'reviewed' ? 0 : 1;
    c.type[i] = Math.max(0, TYPES.indexOf(r.type as (typeof TYPES)[number]));
    c.mainnet[i] = tri(r.mainnet);
    c.latestPassed[i] = tri(r.latestPassed);
    c.templated[i] = r.templated ? 1 : 0;
    c.listed[i] = tri(r.listed);
    c.criteriaExceptFresh[i] = r.criteriaExceptFresh ? 1 : 0;
    c.passRate[i] = num(r.passRate);
    c.checks30d[i] = r.checks30d;
    c.monitoringDays[i] = r.monitoringDays;
    c.payers[i] = num(r.payers);
    c.price[i] = num(r.price);
    c.termsChanges90d[i] = num(r.termsChanges90d);
    c.lastCheckMs[i] = num(r.lastCheckMs);
    c.twoIntervalsMs[i] = freshWindowMs(r.intervalHours);
    let h = hostIds.get(r.host);
    if (h === undefined) {
      h = c.hosts.length;
      hostIds.set(r.host, h);
      c.hosts.push(r.host);
    }
    c.hostId[i] = h;
    c.networkSet[i] = distinct(
      networkSetIds,
      c.networkSets,
      `${r.networks.ids.join('\u0000')}\u0001${r.networks.names.join('\u0000')}`,
      r.networks,
    );
    c.tagList[i] = distinct(tagListIds, c.tagLists, r.tags.join('\u0000'), r.tags);
    // Rows share the one copy of each distinct value (equal by the key above), so the per-row
    // copies parsed from the index are garbage once the generation is loaded.
    r.networks = c.networkSets[c.networkSet[i]!]!;
    r.tags = c.tagLists[c.tagList[i]!]!;
    const hay = haystacks[i]!.toLowerCase().replaceAll('\u0000', ' ');
    c.hay[i] = hay;
    c.hayStart[i] = offset;
    offset += hay.length + 1;
  }
  c.hayStart[n] = offset;
  c.haystack = `${c.hay.join('\u0000')}\u0000`;
  return { ...c, index: buildSearchIndex(c) };
}
