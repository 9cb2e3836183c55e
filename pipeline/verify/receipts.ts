import { factsOf, type PendingReceipt, pendingReceiptsSql, receiptOf } from '../inbox/receipt-checks.ts';
import { receiptVerdict } from '../inbox/receipt-verdict.ts';
import type { Store } from '../store/store.ts';
import type { SignerVerdict } from '../x402/offer-receipt/authorise.ts';
import { verifyArtifact } from '../x402/offer-receipt/index.ts';
import type { Mismatch } from './compare.ts';

/**
 * `atlas verify` on the receipt verdicts (rule outcome-receipt/1): every stored verdict is made again
 * from the raw receipt and the raw rows as they were at its checked_at (the service's URLs, the
 * pay_to hashes observed by then, earlier reports), and compared on state, reason and detail.
 * Verify holds no secret, so the payee step compares the verdict's stored signer hash with the
 * observed hashes; everything else (the signature, the signer's existence, the resource, the window,
 * reuse) is recomputed. A difference is a mismatch `receipts/<report id>`.
 */
export async function recheckReceipts(store: Store): Promise<{ checked: number; mismatches: Mismatch[] }> {
  const rows = await store.all<PendingReceipt>(pendingReceiptsSql(false), [null]);
  const mismatches: Mismatch[] = [];
  for (const p of rows) {
    const v = await verifyArtifact('receipt', receiptOf(p));
    const payees = p.pay_to_hashes ?? [];
    const hash = p.stored_signer_hash ?? null;
    const method = 'payee_key' as const;
    const auth: SignerVerdict =
      v.signature !== 'valid' || !v.signer
        ? { state: 'not_checked', method, reason: 'signature_not_valid' }
        : !v.signer.address
          ? { state: 'not_checked', method, reason: 'key_has_no_address' }
          : payees.length === 0
            ? { state: 'not_checked', method, reason: 'no_payee_known' }
            : hash !== null && payees.includes(hash)
              ? { state: 'authorised', method }
              : { state: 'not_authorised', method, reason: 'key_not_payee' };
    const again = receiptVerdict(v, auth, hash, factsOf(p));
    const id = `receipts/${p.id}`;
    const pairs: Array<[string, unknown, unknown]> = [
      ['state', p.stored_state, again.state],
      ['reason', p.stored_reason ?? null, again.reason],
      ['detail', p.stored_detail ?? null, again.detail],
    ];
    for (const [field, published, recomputed] of pairs) if (published !== recomputed) mismatches.push({ id, field, published, recomputed });
  }
  return { checked: rows.length, mismatches };
}
