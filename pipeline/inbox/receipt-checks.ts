import type { DuckDBValue } from '@duckdb/node-api';
import type { Store } from '../store/store.ts';
import { signerAuthorised, verifyArtifact } from '../x402/offer-receipt/index.ts';
import { payeeHash } from '../x402/offer-receipt/authorise.ts';
import { type ReceiptVerdict, receiptVerdict } from './receipt-verdict.ts';

/**
 * Verify the receipt of every loaded outcome report that carries one and has no verdict yet (rule
 * outcome-receipt/1), and store the verdicts in outcome_receipt_checks (migration 063). Run by
 * `atlas ingest inbox` in the transaction that loads the reports, so a report with a receipt is never
 * in the database without its verdict. Idempotent: a verdict is made once and never revisited.
 *
 * Why at load and not in compute: the signature check is cryptography (not SQL) and its inputs are
 * fixed once the report is in (the receipt, the report's times, the receiving addresses Atlas had
 * observed by then, bounded by `now`, stored as checked_at). Every verdict keeps those inputs
 * (signer hash, resource match, issuedAt and window), so `atlas verify` can re-run the rule on the
 * stored receipts and compare (pipeline/verify/receipts.ts).
 *
 * No network: the signature step never fetches (pipeline/x402/offer-receipt refuses did:web).
 */
export interface ReceiptCheckSummary {
  checked: number;
  verified: number;
}

export interface PendingReceipt {
  id: string;
  receipt: string;
  reported_at: string | null;
  received_at: string;
  has_service: boolean;
  urls: string[] | null;
  pay_to_hashes: string[] | null;
  reused: boolean;
  /** The stored verdict (re-checking only; null for a new one). */
  stored_state?: string | null;
  stored_reason?: string | null;
  stored_detail?: string | null;
  stored_signer_hash?: string | null;
}

/**
 * Reports with a receipt and their facts as of the check: the service's URL and operation URLs, the
 * receiving addresses (keyed hashes) of every valid 402 Atlas observed for it at or before the
 * instant of the check (`$1` for a new verdict, the stored checked_at when re-checking), and whether
 * an earlier report carried the same signature. `onlyUnchecked`: reports without a verdict (the
 * loader); otherwise every one with its stored verdict (`atlas verify`, pipeline/verify/receipts.ts).
 */
export function pendingReceiptsSql(onlyUnchecked: boolean): string {
  return `
WITH r AS (
  SELECT o.id, o.service_id, o.receipt::VARCHAR AS receipt, o.reported_at, o.received_at,
         json_extract_string(o.receipt, '$.signature') AS sig
  FROM outcomes o WHERE o.receipt IS NOT NULL
)
SELECT r.id, r.receipt, rc.state AS stored_state, rc.reason AS stored_reason, rc.detail AS stored_detail,
  rc.signer_hash AS stored_signer_hash,
  strftime(r.reported_at, '%Y-%m-%dT%H:%M:%S.%gZ') AS reported_at,
  strftime(r.received_at, '%Y-%m-%dT%H:%M:%S.%gZ') AS received_at,
  s.id IS NOT NULL AS has_service,
  CASE WHEN s.id IS NOT NULL THEN list_distinct(list_prepend(s.url, coalesce((SELECT list(op.url) FROM operations op WHERE op.service_id = s.id), []))) END AS urls,
  (SELECT list_distinct(flatten(list(pt.pay_to_hashes))) FROM payment_terms pt
     WHERE pt.service_id = r.service_id AND pt.observed_at <= coalesce(rc.checked_at, $1::TIMESTAMP)) AS pay_to_hashes,
  EXISTS (SELECT 1 FROM r p WHERE p.sig = r.sig AND (p.received_at < r.received_at OR (p.received_at = r.received_at AND p.id < r.id))) AS reused
FROM r LEFT JOIN services s ON s.id = r.service_id
LEFT JOIN outcome_receipt_checks rc ON rc.report_id = r.id
${onlyUnchecked ? 'WHERE rc.report_id IS NULL' : 'WHERE rc.report_id IS NOT NULL'}
ORDER BY r.received_at, r.id`;
}

/** The report's facts as the rule reads them. */
export const factsOf = (p: PendingReceipt) => ({
  service: p.has_service ? { urls: p.urls ?? [] } : null,
  reportedAt: p.reported_at ? new Date(p.reported_at) : null,
  receivedAt: new Date(p.received_at),
  reused: Boolean(p.reused),
});

/** The stored receipt object (JSON text); null when unreadable. */
export function receiptOf(p: PendingReceipt): unknown {
  try {
    return JSON.parse(p.receipt);
  } catch {
    return null;
  }
}

/** The verdict of one pending receipt (the signature step, the signer's keyed hash, the rule). */
export async function verdictOf(p: PendingReceipt, secret: string): Promise<ReceiptVerdict> {
  const receipt = receiptOf(p);
  const v = await verifyArtifact('receipt', receipt);
  const auth = signerAuthorised(v, { hashes: p.pay_to_hashes ?? [], secret });
  // The stored pay_to hash of the signer (terms.ts normalisation), kept with the verdict.
  const a = v.signature === 'valid' ? v.signer : undefined;
  const signerHash = a?.address && a.addressKind ? payeeHash(secret, a.address, a.addressKind) : null;
  return receiptVerdict(v, auth, signerHash, factsOf(p));
}

const ts = (d: Date | null): string | null => (d ? d.toISOString().replace('T', ' ').replace('Z', '') : null);

export async function checkReceipts(store: Store, secret: string, now: Date): Promise<ReceiptCheckSummary> {
  const pending = await store.all<PendingReceipt>(pendingReceiptsSql(true), [ts(now)]);
  let verified = 0;
  for (const p of pending) {
    const v = await verdictOf(p, secret);
    if (v.state === 'verified') verified++;
    const params: DuckDBValue[] = [
      p.id,
      v.state,
      v.reason,
      v.detail,
      v.format,
      v.signature,
      v.signerHash,
      v.resourceMatch,
      ts(v.issuedAt),
      ts(v.windowLo),
      ts(v.windowHi),
      v.rule,
      ts(now),
    ];
    await store.run(
      `INSERT INTO outcome_receipt_checks VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::TIMESTAMP, $10::TIMESTAMP, $11::TIMESTAMP, $12, $13::TIMESTAMP)`,
      params,
    );
  }
  return { checked: pending.length, verified };
}
