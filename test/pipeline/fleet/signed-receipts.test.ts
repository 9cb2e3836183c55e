import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fleetAgent, startFleet, type Fleet } from '../../../pipeline/fleet/index.ts';
import { SIGNED_RECEIPT_CASES } from '../../../pipeline/fleet/signed-receipts.ts';
import { signerAuthorised, verifyArtifact } from '../../../pipeline/x402/offer-receipt/index.ts';
import { testClock } from '../../helpers/context.ts';
import { hit } from './hit.ts';

/**
 * The receipt sellers (signedReceipts): an unpaid request gets a valid v2 402 whose payTo is the
 * seller's key; a paid one gets 200 with a settlement response carrying the case's receipt, which
 * the verifier (pipeline/x402/offer-receipt) judges as the case says.
 */
const clock = testClock('2026-11-25T12:00:00Z');
let fleet: Fleet;
const agent = fleetAgent();

beforeAll(async () => {
  fleet = await startFleet({ clock, signedReceipts: true, size: 0 });
});
afterAll(async () => {
  await fleet?.close();
  await agent.close();
});

describe('receipt sellers', () => {
  it('one endpoint per case, each expected to pass unpaid; the default fleet has none', async () => {
    const names = fleet.endpoints.filter((e) => e.name.startsWith('receipt-')).map((e) => e.name);
    expect(names).toEqual(SIGNED_RECEIPT_CASES.map((c) => `receipt-${c}`));
    for (const n of names) expect(fleet.endpoint(n).expected).toMatchObject({ passed: true, reason: 'ok' });
    const plain = await startFleet({ clock, size: 0 });
    try {
      expect(plain.endpoints.some((e) => e.name.startsWith('receipt-'))).toBe(false);
    } finally {
      await plain.close();
    }
  });

  it('answers a paid call with the receipt of its case', async () => {
    const verdicts: Record<string, string> = {};
    for (const c of SIGNED_RECEIPT_CASES) {
      const e = fleet.endpoint(`receipt-${c}`);
      const unpaid = await hit(agent, e.url, { timeoutMs: 5000 });
      expect(unpaid.status).toBe(402);
      const pr = decodePaymentRequiredHeader(unpaid.headers['payment-required']!) as unknown as { accepts: Array<{ payTo: string }> };
      const payTo = pr.accepts[0]!.payTo;
      const paid = await hit(agent, e.url, { timeoutMs: 5000, headers: { 'payment-signature': 'eyJ4NDAyVmVyc2lvbiI6Mn0=' } });
      expect(paid.status).toBe(200);
      const settlement = decodePaymentResponseHeader(paid.headers['payment-response']!) as unknown as {
        success: boolean;
        extensions?: { 'offer-receipt'?: { info: { receipt: unknown } } };
      };
      expect(settlement.success).toBe(true);
      const receipt = settlement.extensions?.['offer-receipt']?.info.receipt;
      if (c === 'no-receipt') {
        expect(receipt).toBeUndefined();
        verdicts[c] = 'none';
        continue;
      }
      const v = await verifyArtifact('receipt', receipt);
      const auth = signerAuthorised(v, { addresses: [payTo] });
      const issued = v.payload ? new Date(v.payload.issuedAt * 1000).toISOString() : '-';
      verdicts[c] = `${v.signature}/${auth.state}/${v.payload?.resourceUrl === e.url ? 'same' : 'other'}/${issued}`;
    }
    const now = '2026-11-25T12:00:00.000Z';
    expect(verdicts).toEqual({
      valid: `valid/authorised/same/${now}`,
      'valid-jws': `valid/authorised/same/${now}`,
      'bad-signature': 'invalid/not_checked/other/-',
      'wrong-signer': `valid/not_authorised/same/${now}`,
      'resource-mismatch': `valid/authorised/other/${now}`,
      stale: 'valid/authorised/same/2026-11-22T12:00:00.000Z',
      'no-receipt': 'none',
    });
  });
});
