import { describe, expect, it } from 'vitest';
import { signedOffersFigures } from '../../../../pipeline/reports/signed-offers-figures.ts';
import { insertCheckRecords, type CheckRecord } from '../../../../pipeline/probe/check-writer.ts';
import type { SignedOfferCheck } from '../../../../site/contract/offer-receipt.ts';
import { withTestStore } from '../../../helpers/context.ts';
import { signedOfferCheck } from '../../../helpers/offer-checks.ts';
import { seedServices } from '../../probe/seed.ts';

/**
 * The signed-offer rules of pipeline/store/rules.sql (atlas_signed_offers_as_of,
 * atlas_signed_offer_events) over rows written through the probe's one check insert.
 */
const offer = signedOfferCheck;
const check = (id: string, at: string, signed: SignedOfferCheck[] | null): { check: CheckRecord; terms: never } => ({
  check: {
    service_id: id,
    operation: 'primary',
    slot: at,
    checked_at: at,
    status: 402,
    passed: true,
    reason: 'ok',
    rule: 'x402-mainnet/2',
    latency_ms: 5,
    ttfb_ms: 5,
    run_id: 'run_1',
    url: 'http://x.fleet.test/api',
    method: 'GET',
    bytes: 2,
    detail: null,
    protocols: ['x402-v2'],
    auth_schemes: null,
    ...(signed ? { signed_offers: signed } : {}),
  },
  terms: {
    service_id: id,
    operation: 'primary',
    slot: at,
    observed_at: at,
    x402_version: 2,
    offers: [],
    terms_hash: 'h',
    networks: ['eip155:8453'],
    schemes: ['exact'],
    assets: [],
    pay_to_hashes: [],
    amounts: [],
    timeouts: [],
    min_price_usd: null,
  } as never,
});

describe('signed-offer rules', () => {
  it('state of the latest valid request, reasons counted, terms-differ events on transitions only', async () => {
    await withTestStore(async (store) => {
      await seedServices(store, [
        { id: 'cand_a', ops: [{ url: 'http://a.fleet.test/api', rule: 'x402-mainnet/2' }] },
        { id: 'cand_b', ops: [{ url: 'http://b.fleet.test/api', rule: 'x402-mainnet/2' }] },
        { id: 'cand_c', ops: [{ url: 'http://c.fleet.test/api', rule: 'x402-mainnet/2' }] },
      ]);
      const differ = offer({ terms_differ: true, differing: ['amount'] });
      await insertCheckRecords(store, [
        // a: differs at 10:00 and 11:00 (one event), not at 12:00, differs again at 13:00 (second event).
        check('cand_a', '2026-11-25T10:00:00.000Z', [differ]),
        check('cand_a', '2026-11-25T11:00:00.000Z', [differ]),
        check('cand_a', '2026-11-25T12:00:00.000Z', [offer()]),
        check('cand_a', '2026-11-25T13:00:00.000Z', [
          differ,
          offer({ offer_index: 1, terms_differ: true, differing: ['pay_to', 'amount'] }),
        ]),
        // b: signed once, then a request without signed offers is the latest.
        check('cand_b', '2026-11-25T10:00:00.000Z', [
          offer({
            format: 'jws',
            signature: 'not_checked',
            signature_reason: 'did_web_not_resolved',
            signer: 'not_checked',
            signer_reason: 'signature_not_valid',
            kid_method: 'did:web',
            accept_index: null,
            terms_differ: null,
          }),
        ]),
        check('cand_b', '2026-11-25T11:00:00.000Z', null),
        // c: never signed.
        check('cand_c', '2026-11-25T10:00:00.000Z', null),
      ]);
      const events = await store.all<{ service_id: string; at: string; fields: string; offers: number }>(
        "SELECT service_id, atlas_iso(event_at) AS at, fields::VARCHAR AS fields, offers FROM atlas_signed_offer_events(TIMESTAMP '2026-11-25 23:00:00') ORDER BY service_id, event_at",
      );
      expect(events).toEqual([
        { service_id: 'cand_a', at: '2026-11-25T10:00:00.000Z', fields: '[amount]', offers: 1 },
        { service_id: 'cand_a', at: '2026-11-25T13:00:00.000Z', fields: '[amount, pay_to]', offers: 2 },
      ]);
      const state = await store.all<Record<string, unknown>>(
        "SELECT service_id, atlas_iso(checked_at) AS checked_at, signed, valid, not_checked, authorised, signer_not_checked, reasons::VARCHAR AS reasons, terms_differ, differing_fields::VARCHAR AS differing_fields, atlas_iso(last_terms_differ_at) AS last FROM atlas_signed_offers_as_of(TIMESTAMP '2026-11-25 23:00:00') ORDER BY service_id",
      );
      expect(state).toEqual([
        {
          service_id: 'cand_a',
          checked_at: '2026-11-25T13:00:00.000Z',
          signed: 2,
          valid: 2,
          not_checked: 0,
          authorised: 2,
          signer_not_checked: 0,
          reasons: '[]',
          terms_differ: 2,
          differing_fields: '[amount, pay_to]',
          last: '2026-11-25T13:00:00.000Z',
        },
        {
          service_id: 'cand_b',
          checked_at: '2026-11-25T11:00:00.000Z',
          signed: 0,
          valid: 0,
          not_checked: 0,
          authorised: 0,
          signer_not_checked: 0,
          reasons: '[]',
          terms_differ: 0,
          differing_fields: '[]',
          last: null,
        },
      ]);
      // As of 10:30, b's latest request is its signed one.
      const early = await store.all<Record<string, unknown>>(
        "SELECT service_id, not_checked, signer_not_checked, reasons::VARCHAR AS reasons FROM atlas_signed_offers_as_of(TIMESTAMP '2026-11-25 10:30:00') WHERE service_id = 'cand_b'",
      );
      expect(early).toEqual([
        {
          service_id: 'cand_b',
          not_checked: 1,
          signer_not_checked: 1,
          reasons: "[{'reason': did_web_not_resolved, 'offers': 1}, {'reason': signature_not_valid, 'offers': 1}]",
        },
      ]);
      // The weekly report counts the events in its window [from, until).
      expect(await signedOffersFigures(store, '2026-11-25T00:00:00.000Z', '2026-11-25T23:00:00.000Z')).toEqual({
        terms_differ_events: 2,
        services: 1,
      });
      expect(await signedOffersFigures(store, '2026-11-25T11:00:00.000Z', '2026-11-25T13:00:00.000Z')).toEqual({
        terms_differ_events: 0,
        services: 0,
      });
      // Offer rows are written only with their check (a second insert of the same slot adds none).
      await insertCheckRecords(store, [check('cand_a', '2026-11-25T13:00:00.000Z', [differ])]);
      const [n] = await store.all<{ n: number }>("SELECT count(*)::INTEGER AS n FROM offer_signatures WHERE service_id = 'cand_a'");
      expect(n!.n).toBe(5);
    });
  });
});
