import type { SignedOfferCheck } from '../../site/contract/offer-receipt.ts';
import type { Store } from '../store/store.ts';
import type { Terms } from '../x402/terms.ts';

/**
 * Durable, batched writes of check rows and payment-term observations.
 * - Rows are buffered and flushed every `batchSize` rows or `flushMs` milliseconds, whichever first;
 *   a SIGKILL loses at most the probes in flight plus the rows of one unflushed interval, and the
 *   next run fills those slots (they are still due).
 * - A flush hands the batch to DuckDB as ONE JSON parameter and inserts it with `INSERT … SELECT
 *   FROM unnest(from_json($1, <shape>))` and an anti-join on (service_id, operation, slot): a rerun,
 *   `--all` or a parallel shard never stores a second row for a slot. Payment terms go in the same
 *   transaction, only for the check rows that insert returned (a terms row is only ever written with
 *   its check row, so no second anti-join is needed). Committed rows survive kill -9 (WAL). Measured against an Appender into a staging
 *   table and an NDJSON spool file read with read_json (docs/notes/probe.md): similar rows/s at these
 *   batch sizes, but the Appender's flushSync and the spool's file write run on the event loop
 *   at several times the per-row cost of JSON.stringify — the prober's event loop is what serves the
 *   HTTP side.
 * - `add` resolves once the row is committed (the documentation sink waits for that); the rows of
 *   one batch share one promise.
 * - Flushes are serialized; a failed flush rejects its rows' promises and the run's `close()`.
 */
export interface CheckRow {
  serviceId: string;
  operation: string;
  slot: Date;
  checkedAt: Date;
  status: number | null;
  passed: boolean;
  reason: string;
  rule: string;
  latencyMs: number | null;
  ttfbMs: number | null;
  runId: string;
  url: string;
  method: string;
  bytes: number | null;
  detail: string | null;
  /** Payment protocols of a 402 answer to a call (pipeline/x402/classify-402.ts); null otherwise. */
  protocols: string[] | null;
  /** Auth schemes a 401 answer to MCP's plain GET names (migration 023); null otherwise. */
  authSchemes: string[] | null;
  /** The offer-receipt signed offers of a valid x402 request (migration 062); null when it carries none. Optional: absent = null. */
  signedOffers?: SignedOfferCheck[] | null;
}

const CHECK_SHAPE = JSON.stringify([
  {
    service_id: 'VARCHAR',
    operation: 'VARCHAR',
    slot: 'VARCHAR',
    checked_at: 'VARCHAR',
    status: 'INTEGER',
    passed: 'BOOLEAN',
    reason: 'VARCHAR',
    rule: 'VARCHAR',
    latency_ms: 'DOUBLE',
    ttfb_ms: 'DOUBLE',
    run_id: 'VARCHAR',
    url: 'VARCHAR',
    method: 'VARCHAR',
    bytes: 'INTEGER',
    detail: 'VARCHAR',
    protocols: 'VARCHAR[]',
    auth_schemes: 'VARCHAR[]',
  },
]);
const TERMS_SHAPE = JSON.stringify([
  {
    service_id: 'VARCHAR',
    operation: 'VARCHAR',
    slot: 'VARCHAR',
    observed_at: 'VARCHAR',
    x402_version: 'INTEGER',
    offers: 'JSON',
    terms_hash: 'VARCHAR',
    networks: 'VARCHAR[]',
    schemes: 'VARCHAR[]',
    assets: 'VARCHAR[]',
    pay_to_hashes: 'VARCHAR[]',
    amounts: 'VARCHAR[]',
    timeouts: 'INTEGER[]',
    min_price_usd: 'DOUBLE',
    max_price_usd: 'DOUBLE',
    currencies: 'VARCHAR[]',
  },
]);

const INSERT_CHECKS = `INSERT INTO checks (service_id, operation, slot, checked_at, status, passed, reason, rule, latency_ms, ttfb_ms, run_id, url, method, bytes, detail, protocols, auth_schemes)
  SELECT s.service_id, s.operation, s.slot::TIMESTAMP, s.checked_at::TIMESTAMP, s.status, s.passed, s.reason, s.rule,
         s.latency_ms, s.ttfb_ms, s.run_id, s.url, s.method, s.bytes, s.detail, s.protocols, s.auth_schemes
  FROM (SELECT r.* FROM (SELECT unnest(from_json($1::JSON, '${CHECK_SHAPE}')) AS r)) s
  WHERE NOT EXISTS (SELECT 1 FROM checks c
                    WHERE c.slot BETWEEN $2::TIMESTAMP AND $3::TIMESTAMP
                      AND c.service_id = s.service_id AND c.operation = s.operation AND c.slot = s.slot::TIMESTAMP)
  QUALIFY row_number() OVER (PARTITION BY s.service_id, s.operation, s.slot) = 1
  RETURNING service_id, operation, epoch_ms(slot) AS slot_ms`;

const INSERT_TERMS = `INSERT INTO payment_terms (service_id, operation, slot, observed_at, x402_version, offers, terms_hash, networks, schemes, assets, pay_to_hashes, amounts, timeouts, min_price_usd, max_price_usd, currencies)
  SELECT s.service_id, s.operation, s.slot::TIMESTAMP, s.observed_at::TIMESTAMP, s.x402_version, s.offers, s.terms_hash,
         s.networks, s.schemes, s.assets, s.pay_to_hashes, s.amounts, s.timeouts, s.min_price_usd, s.max_price_usd, s.currencies
  FROM (SELECT r.* FROM (SELECT unnest(from_json($1::JSON, '${TERMS_SHAPE}')) AS r)) s`;

const OFFER_SHAPE = JSON.stringify([
  {
    service_id: 'VARCHAR',
    operation: 'VARCHAR',
    slot: 'VARCHAR',
    checked_at: 'VARCHAR',
    offer_index: 'INTEGER',
    format: 'VARCHAR',
    signature: 'VARCHAR',
    signature_reason: 'VARCHAR',
    signer: 'VARCHAR',
    signer_reason: 'VARCHAR',
    kid_method: 'VARCHAR',
    accept_index: 'INTEGER',
    terms_differ: 'BOOLEAN',
    differing: 'VARCHAR[]',
  },
]);

const INSERT_OFFERS = `INSERT INTO offer_signatures (service_id, operation, slot, checked_at, offer_index, format, signature, signature_reason, signer, signer_reason, kid_method, accept_index, terms_differ, differing)
  SELECT s.service_id, s.operation, s.slot::TIMESTAMP, s.checked_at::TIMESTAMP, s.offer_index, s.format, s.signature, s.signature_reason,
         s.signer, s.signer_reason, s.kid_method, s.accept_index, s.terms_differ, s.differing
  FROM (SELECT r.* FROM (SELECT unnest(from_json($1::JSON, '${OFFER_SHAPE}')) AS r)) s`;

const keyOf = (serviceId: string, operation: string, slotMs: number) => `${serviceId}\u0000${operation}\u0000${slotMs}`;

/** A check row as stored (column names, times as ISO strings): what a flush inserts and what a batch file line holds. */
export interface CheckRecord {
  service_id: string;
  operation: string;
  slot: string;
  checked_at: string;
  status: number | null;
  passed: boolean;
  reason: string;
  rule: string;
  latency_ms: number | null;
  ttfb_ms: number | null;
  run_id: string;
  url: string;
  method: string;
  bytes: number | null;
  detail: string | null;
  /** Absent in batch files written before migration 021 (loaded as null). */
  protocols?: string[] | null;
  /** Absent in batch files written before migration 023 (loaded as null). */
  auth_schemes?: string[] | null;
  /** Rows of `offer_signatures` (migration 062), written with the check; absent or null when none. */
  signed_offers?: SignedOfferCheck[] | null;
}

/** A payment-term observation as stored, keyed like its check (service_id, operation, slot). */
export interface TermsRecord {
  service_id: string;
  operation: string;
  slot: string;
  observed_at: string;
  x402_version: number;
  offers: unknown;
  terms_hash: string;
  networks: string[];
  schemes: string[];
  assets: string[];
  pay_to_hashes: string[];
  amounts: string[];
  timeouts: number[];
  min_price_usd: number | null;
  /** Absent in batch files written before migration 022: stored as null (not recorded). */
  max_price_usd?: number | null;
  currencies?: string[] | null;
}

export function checkRecord(c: CheckRow): CheckRecord {
  return {
    service_id: c.serviceId,
    operation: c.operation,
    slot: c.slot.toISOString(),
    checked_at: c.checkedAt.toISOString(),
    status: c.status,
    passed: c.passed,
    reason: c.reason,
    rule: c.rule,
    latency_ms: c.latencyMs,
    ttfb_ms: c.ttfbMs,
    run_id: c.runId,
    url: c.url,
    method: c.method,
    bytes: c.bytes,
    detail: c.detail,
    protocols: c.protocols,
    auth_schemes: c.authSchemes,
    ...(c.signedOffers ? { signed_offers: c.signedOffers } : {}),
  };
}

/** The terms seen by check `c` (observed at the check's time, in the check's slot). */
export function termsRecord(c: CheckRow, t: Terms): TermsRecord {
  return {
    service_id: c.serviceId,
    operation: c.operation,
    slot: c.slot.toISOString(),
    observed_at: c.checkedAt.toISOString(),
    x402_version: t.version,
    offers: t.offers,
    terms_hash: t.termsHash,
    networks: t.networks,
    schemes: t.schemes,
    assets: t.assets,
    pay_to_hashes: t.payToHashes,
    amounts: t.amounts,
    timeouts: t.timeouts,
    min_price_usd: t.minPriceUsd,
    max_price_usd: t.maxPriceUsd,
    currencies: t.currencies,
  };
}

/**
 * Check rows already serialized (one JSON text per row, as `JSON.stringify(checkRecord(…))` gives),
 * the slot range they span, and their terms keyed like their check.
 */
interface SerializedBatch {
  checks: string[];
  lo: number;
  hi: number;
  terms: Array<{ key: string; json: string }>;
  /** The `offer_signatures` rows of a check, serialized (only checks whose 402 carried signed offers). */
  offers: Array<{ key: string; json: string }>;
}

/**
 * Insert check records with the anti-join on (service_id, operation, slot) and, in the same
 * transaction (or the caller's, when nested), the terms of the checks that insert returned. The one
 * insert of checks: the run's writer and the batch-file loader both go through it.
 */
export async function insertCheckRecords(
  store: Store,
  items: ReadonlyArray<{ check: CheckRecord; terms: TermsRecord | null }>,
): Promise<{ checks: number; terms: number }> {
  const batch: SerializedBatch = { checks: [], lo: Infinity, hi: -Infinity, terms: [], offers: [] };
  for (const { check: c, terms: t } of items) addSerialized(batch, c, Date.parse(c.slot), t);
  return insertSerialized(store, batch);
}

function addSerialized(b: SerializedBatch, c: CheckRecord, slotMs: number, t: TermsRecord | null): void {
  b.lo = Math.min(b.lo, slotMs);
  b.hi = Math.max(b.hi, slotMs);
  const { signed_offers: offers, ...check } = c;
  b.checks.push(JSON.stringify(check));
  if (t) b.terms.push({ key: keyOf(c.service_id, c.operation, slotMs), json: JSON.stringify(t) });
  if (offers?.length) {
    const at = { service_id: c.service_id, operation: c.operation, slot: c.slot, checked_at: c.checked_at };
    b.offers.push({ key: keyOf(c.service_id, c.operation, slotMs), json: offers.map((o) => JSON.stringify({ ...at, ...o })).join(',') });
  }
}

async function insertSerialized(store: Store, b: SerializedBatch): Promise<{ checks: number; terms: number }> {
  if (!b.checks.length) return { checks: 0, terms: 0 };
  const checksJson = `[${b.checks.join(',')}]`;
  return store.transaction(async () => {
    // The constant slot range lets DuckDB skip row groups of older checks (zone maps): the anti-join
    // stays cheap when the table holds months of checks.
    const range = [new Date(b.lo).toISOString(), new Date(b.hi).toISOString()];
    const rows = await store.all<{ service_id: string; operation: string; slot_ms: string | number }>(INSERT_CHECKS, [
      checksJson,
      ...range,
    ]);
    let termsInserted = 0;
    if (b.terms.length) {
      const fresh = new Set(rows.map((r) => keyOf(r.service_id, r.operation, Number(r.slot_ms))));
      const keep = b.terms.filter((t) => fresh.has(t.key)).map((t) => t.json);
      if (keep.length) await store.run(INSERT_TERMS, [`[${keep.join(',')}]`]);
      termsInserted = keep.length;
    }
    if (b.offers.length) {
      // Like terms: only with a check row this insert wrote (one set of offer rows per slot).
      const fresh = new Set(rows.map((r) => keyOf(r.service_id, r.operation, Number(r.slot_ms))));
      const keep = b.offers.filter((o) => fresh.has(o.key)).map((o) => o.json);
      if (keep.length) await store.run(INSERT_OFFERS, [`[${keep.join(',')}]`]);
    }
    return { checks: rows.length, terms: termsInserted };
  });
}

/** The rows waiting for one flush, and the one promise they all share (settled when it commits or fails). */
interface PendingBatch extends SerializedBatch {
  done: Promise<void>;
  resolve: () => void;
  reject: (e: unknown) => void;
}

function pendingBatch(): PendingBatch {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const done = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Callers may watch only one row of a batch; a failure is also kept in the writer and thrown by close().
  done.catch(() => undefined);
  return { checks: [], lo: Infinity, hi: -Infinity, terms: [], offers: [], done, resolve, reject };
}

export class CheckWriter {
  private batch: PendingBatch | null = null;
  private chain: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  private failure: unknown = null;
  written = 0;
  skipped = 0;

  constructor(
    private readonly store: Store,
    private readonly opts: { batchSize: number; flushMs: number },
  ) {}

  /** Kept for symmetry with close(); nothing to prepare. */
  async open(): Promise<void> {}

  /**
   * Memory: the row (and its terms) is serialized here, so a waiting batch holds one string per row
   * rather than the row's objects (they would outlive V8's young generation and be promoted as
   * garbage); every row of a batch shares the batch's promise.
   */
  add(check: CheckRow, terms: Terms | null): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    this.batch ??= pendingBatch();
    const b = this.batch;
    addSerialized(b, checkRecord(check), check.slot.getTime(), terms ? termsRecord(check, terms) : null);
    if (b.checks.length >= this.opts.batchSize) void this.flush().catch(() => undefined);
    else if (!this.timer) this.timer = setTimeout(() => void this.flush().catch(() => undefined), this.opts.flushMs);
    return b.done;
  }

  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const batch = this.batch;
    this.batch = null;
    if (!batch) return this.chain;
    this.chain = this.chain
      .then(() => this.write(batch))
      .then(
        () => batch.resolve(),
        (e) => {
          this.failure ??= e;
          batch.reject(e);
        },
      );
    return this.chain.then(() => {
      if (this.failure) throw this.failure;
    });
  }

  private async write(batch: SerializedBatch): Promise<void> {
    const inserted = await insertSerialized(this.store, batch);
    this.written += inserted.checks;
    this.skipped += batch.checks.length - inserted.checks;
  }

  /** Flush what is left and release the appenders (call in finally). */
  async close(): Promise<void> {
    await this.flush();
  }
}
