import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeAll } from '../../../pipeline/compute/index.ts';
import { parseConfig } from '../../../pipeline/core/config.ts';
import { fleetConfig, startFleet, type Fleet } from '../../../pipeline/fleet/index.ts';
import { SIGNED_OFFER_CASES } from '../../../pipeline/fleet/signed-offers.ts';
import { runProbe } from '../../../pipeline/probe/index.ts';
import { publish } from '../../../pipeline/publish/index.ts';
import { verifyGeneration } from '../../../pipeline/verify/index.ts';
import { ServiceDetail } from '../../../site/contract/index.ts';
import { makeContext, openTestStore, tempDir, testClock } from '../../helpers/context.ts';
import { withServedTree } from '../publish/daily-world.ts';
import { seedServices } from '../probe/seed.ts';

/**
 * End to end, one signing seller per case (pipeline/fleet/signed-offers.ts): the real fleet on
 * 127.0.0.1, the real probe (it verifies the 402's signed offers), compute, publish, the real app's
 * single-service answer and `atlas verify` over the generation. Set ATLAS_SHOW_SIGNED_OFFERS to a
 * file path to write the published members there (the note's "show" outputs).
 */
const WANT: Record<(typeof SIGNED_OFFER_CASES)[number], Record<string, unknown>> = {
  'eip712-valid': { signed: 1, valid: 1, authorised: 1, terms_differ: 0, reasons: [] },
  'jws-valid': { signed: 1, valid: 1, authorised: 1, terms_differ: 0, reasons: [] },
  'bad-signature': {
    signed: 1,
    invalid: 1,
    signer_not_checked: 1,
    reasons: [
      { reason: 'signature_mismatch', offers: 1 },
      { reason: 'signature_not_valid', offers: 1 },
    ],
  },
  'wrong-signer': { signed: 1, valid: 1, not_authorised: 1, reasons: [{ reason: 'key_not_payee', offers: 1 }] },
  'did-web': {
    signed: 1,
    not_checked: 1,
    signer_not_checked: 1,
    reasons: [
      { reason: 'did_web_not_resolved', offers: 1 },
      { reason: 'signature_not_valid', offers: 1 },
    ],
  },
  'terms-differ': { signed: 1, valid: 1, authorised: 1, terms_differ: 1, differing_fields: ['amount'] },
};

describe('signing sellers, probe to published field', () => {
  const clock = testClock('2026-11-25T12:10:00Z');
  const t = tempDir('atlas-signed-offers-');
  let fleet: Fleet;
  beforeAll(async () => {
    fleet = await startFleet({ clock, signedOffers: true, size: 8 });
  });
  afterAll(async () => {
    await fleet.close();
    t.cleanup();
  });

  it('publishes each case, and verify recomputes it', async () => {
    const store = await openTestStore(t.dir);
    try {
      const signing = fleet.endpoints.filter((e) => e.behaviour.startsWith('signed-offer:'));
      expect(signing.map((e) => e.behaviour.slice('signed-offer:'.length))).toEqual([...SIGNED_OFFER_CASES]);
      await seedServices(
        store,
        signing.map((e) => ({ id: `cand_${e.name}`, ops: [{ url: e.url, method: e.method, rule: 'x402-mainnet/2' as const }] })),
      );
      const ctx = makeContext(t.dir, { clock, config: parseConfig(fleetConfig(fleet)) });
      const fetchSpy = globalThis.fetch;
      const summary = await runProbe(ctx, store, { timeoutMs: 5000 });
      expect(globalThis.fetch).toBe(fetchSpy);
      expect(summary.counts.probed).toBe(signing.length);
      const checks = await store.all<{ service_id: string; passed: boolean }>('SELECT service_id, passed FROM checks');
      expect(checks.every((c) => c.passed)).toBe(true);

      clock.advance(60_000);
      await computeAll(ctx, store);
      clock.advance(60_000);
      await publish(ctx, store);
      const verified = await verifyGeneration(store, ctx.paths.publicDir);
      expect(verified.mismatches).toEqual([]);
      expect(verified.checked.services).toBe(signing.length);

      const shown: Record<string, unknown> = {};
      await withServedTree(ctx, async (get) => {
        // The terms-differ event is in the change feed.
        const changes = (await (await get('/api/v1/changes?days=7')).json()) as { events: unknown[] };
        expect(changes.events).toEqual([
          {
            kind: 'signed_offer_terms_differ',
            service_id: 'cand_signed-terms-differ',
            service_name: 'cand_signed-terms-differ',
            detected_at: '2026-11-25T12:10:00.000Z',
            fields: ['amount'],
            offers: 1,
          },
        ]);
        shown.change_feed_events = changes.events;
        for (const e of signing) {
          const res = await get(`/api/v1/services/cand_${e.name}`);
          expect(res.status).toBe(200);
          const body = ServiceDetail.parse(await res.json());
          const c = e.behaviour.slice('signed-offer:'.length) as keyof typeof WANT;
          const zero = {
            signed: 0,
            valid: 0,
            invalid: 0,
            not_checked: 0,
            authorised: 0,
            not_authorised: 0,
            signer_not_checked: 0,
            terms_differ: 0,
          };
          expect(body.signed_offers, c).toMatchObject({ ...zero, reasons: [], differing_fields: [], ...WANT[c] });
          expect(body.signed_offers!.checked_at).toBe('2026-11-25T12:10:00.000Z');
          expect(body.signed_offers!.last_terms_differ_at).toBe(c === 'terms-differ' ? '2026-11-25T12:10:00.000Z' : null);
          shown[c] = body.signed_offers;
          const page = await (await get(`/services/cand_${e.name}`)).text();
          expect(page).toContain('Signed offers');
        }
      });
      const stored = await store.all<Record<string, unknown>>(
        `SELECT service_id, offer_index, format, signature, signature_reason, signer, signer_reason, kid_method, accept_index, terms_differ,
           differing::VARCHAR AS differing FROM offer_signatures ORDER BY service_id`,
      );
      expect(stored).toHaveLength(signing.length);
      shown.offer_signatures = stored;
      if (process.env.ATLAS_SHOW_SIGNED_OFFERS)
        writeFileSync(process.env.ATLAS_SHOW_SIGNED_OFFERS, `${JSON.stringify({ verify: verified, shown }, null, 2)}\n`);
    } finally {
      store.close();
    }
  }, 60_000);
});
