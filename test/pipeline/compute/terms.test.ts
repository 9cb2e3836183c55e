import { describe, expect, it } from 'vitest';
import { addDiscovered, at, BASE_USDC, insertChecks, insertTerms, makeCheck, makeTerms, T0, type TermsRow } from './fixtures.ts';
import { computeAt, withDb } from './helpers.ts';

const POLYGON_USDC = '0x3c499c542cef5e3811e1192ce70d8cc03d5c3359';
const iso = (v: unknown) => (v === null ? null : new Date(`${String(v).replace(' ', 'T')}Z`).toISOString());

interface Summary {
  current_since: string;
  changes_30d: number;
  changes_90d: number;
  pay_to_changes_90d: number;
  last_change_at: string | null;
  last_change_kinds: string[];
  window_start: string;
  limited: boolean;
  latest_networks: string[];
  latest_mainnet: boolean;
}

async function summaryOf(store: import('../../../pipeline/store/store.ts').Store, id: string): Promise<Summary> {
  const [r] = await store.all<Record<string, unknown>>(`SELECT * FROM terms_summary WHERE service_id = '${id}'`);
  if (!r) throw new Error(`no terms_summary for ${id}`);
  return {
    current_since: iso(r.current_since)!,
    changes_30d: Number(r.changes_30d),
    changes_90d: Number(r.changes_90d),
    pay_to_changes_90d: Number(r.pay_to_changes_90d),
    last_change_at: iso(r.last_change_at),
    last_change_kinds: r.last_change_kinds as string[],
    window_start: iso(r.window_start)!,
    limited: r.limited as boolean,
    latest_networks: r.latest_networks as string[],
    latest_mainnet: r.latest_mainnet as boolean,
  };
}

/** Terms A (price 0.01, payTo a, Base) → day 20 price → day 50 payTo → day 80 network added. */
function history(id: string): TermsRow[] {
  const A = {};
  const B = { amounts: [`exact|eip155:8453|${BASE_USDC}=20000`], min_price_usd: 0.02 };
  const C = { ...B, pay_to_hashes: ['payto-b'] };
  const D = {
    ...C,
    networks: ['eip155:137', 'eip155:8453'],
    assets: [`eip155:137|${POLYGON_USDC}`, `eip155:8453|${BASE_USDC}`],
    amounts: [`exact|eip155:137|${POLYGON_USDC}=20000`, `exact|eip155:8453|${BASE_USDC}=20000`],
  };
  const rows: TermsRow[] = [];
  for (let d = 0; d < 100; d++) {
    // invalid probes (no valid payment request, so no observation): days 30-35 and 60-65
    if ((d >= 30 && d <= 35) || (d >= 60 && d <= 65)) continue;
    const terms = d < 20 ? A : d < 50 ? B : d < 80 ? C : D;
    rows.push(makeTerms({ service_id: id, observed_at: at(T0, d), ...terms }));
  }
  return rows;
}

describe('payment terms over 90 days', () => {
  it('price change, then payTo change, then a network added: kinds, counts at 30 and 90 days, current_since', async () => {
    await withDb(async (store, dir) => {
      await addDiscovered(store, { id: 'cand_t' });
      await insertTerms(store, history('cand_t'));
      // the invalid probes are failed checks, not observations
      await insertChecks(
        store,
        [30, 31, 60, 61].map((d) =>
          makeCheck({ service_id: 'cand_t', checked_at: at(T0, d), passed: false, reason: 'invalid_payment_request' }),
        ),
      );

      await computeAt(store, dir, at(T0, 100));
      expect(await summaryOf(store, 'cand_t')).toEqual({
        current_since: at(T0, 80),
        changes_30d: 1,
        changes_90d: 3,
        pay_to_changes_90d: 1,
        last_change_at: at(T0, 80),
        last_change_kinds: ['network_added'],
        window_start: at(T0, 10),
        limited: false,
        latest_networks: ['eip155:137', 'eip155:8453'],
        latest_mainnet: true,
      });
      const changes = await store.all<{ changed_at: string; kinds: string[] }>(
        `SELECT changed_at, kinds FROM terms_changes WHERE service_id = 'cand_t' ORDER BY changed_at`,
      );
      expect(changes.map((c) => [iso(c.changed_at), c.kinds])).toEqual([
        [at(T0, 20), ['price']],
        [at(T0, 50), ['pay_to']],
        [at(T0, 80), ['network_added']],
      ]);

      // at day 60 (during the second run of invalid probes): two changes in 90 days, one in 30; still limited
      await computeAt(store, dir, at(T0, 60, 12));
      expect(await summaryOf(store, 'cand_t')).toMatchObject({
        current_since: at(T0, 50),
        changes_30d: 1,
        changes_90d: 2,
        pay_to_changes_90d: 1,
        last_change_at: at(T0, 50),
        last_change_kinds: ['pay_to'],
        window_start: T0,
        limited: true,
      });

      // at day 130 the price change (day 20) and the payTo change (day 50) have left... only day 50 is out at 140
      await computeAt(store, dir, at(T0, 141));
      expect(await summaryOf(store, 'cand_t')).toMatchObject({
        changes_30d: 0,
        changes_90d: 1,
        pay_to_changes_90d: 0,
        current_since: at(T0, 80),
        window_start: at(T0, 51),
      });
    });
  }, 60_000);

  it('invalid probes in between neither count as changes nor reset current_since', async () => {
    await withDb(async (store, dir) => {
      await addDiscovered(store, { id: 'cand_i' });
      // same terms on days 0-9, invalid probes (no rows) days 10-19, same terms again from day 20
      const rows = [...Array(10).keys(), ...[20, 21, 22]].map((d) => makeTerms({ service_id: 'cand_i', observed_at: at(T0, d) }));
      await insertTerms(store, rows);
      await computeAt(store, dir, at(T0, 23));
      expect(await summaryOf(store, 'cand_i')).toMatchObject({
        current_since: T0,
        changes_30d: 0,
        changes_90d: 0,
        last_change_at: null,
        last_change_kinds: [],
      });
      expect(await store.all(`SELECT * FROM terms_changes WHERE service_id = 'cand_i'`)).toEqual([]);
    });
  });

  it('limited while tracking is under 90 days (89 vs 91)', async () => {
    await withDb(async (store, dir) => {
      await addDiscovered(store, { id: 'cand_l' });
      await insertTerms(store, [
        makeTerms({ service_id: 'cand_l', observed_at: T0 }),
        makeTerms({ service_id: 'cand_l', observed_at: at(T0, 88) }),
      ]);
      await computeAt(store, dir, at(T0, 89));
      expect(await summaryOf(store, 'cand_l')).toMatchObject({ limited: true, window_start: T0 });
      await computeAt(store, dir, at(T0, 91));
      expect(await summaryOf(store, 'cand_l')).toMatchObject({ limited: false, window_start: at(T0, 1) });
    });
  });

  it('classifies asset, scheme, version, network_removed and other (timeout) changes; testnet-only is not mainnet', async () => {
    await withDb(async (store, dir) => {
      await addDiscovered(store, { id: 'cand_k' });
      const SEPOLIA_USDC = '0x036cbd53842c5426634e7929541ec2318f3dcf7e';
      await insertTerms(store, [
        makeTerms({ service_id: 'cand_k', observed_at: at(T0, 0) }),
        // asset swapped on the same network
        makeTerms({
          service_id: 'cand_k',
          observed_at: at(T0, 1),
          assets: ['eip155:8453|0xother'],
          amounts: ['exact|eip155:8453|0xother=10000'],
        }),
        // scheme and version change
        makeTerms({
          service_id: 'cand_k',
          observed_at: at(T0, 2),
          x402_version: 1,
          schemes: ['upto'],
          assets: ['eip155:8453|0xother'],
          amounts: ['upto|eip155:8453|0xother=10000'],
        }),
        // timeout only
        makeTerms({
          service_id: 'cand_k',
          observed_at: at(T0, 3),
          x402_version: 1,
          schemes: ['upto'],
          assets: ['eip155:8453|0xother'],
          amounts: ['upto|eip155:8453|0xother=10000'],
          timeouts: [300],
        }),
        // moved to a test network only: Base removed, Base Sepolia added
        makeTerms({
          service_id: 'cand_k',
          observed_at: at(T0, 4),
          x402_version: 1,
          schemes: ['upto'],
          networks: ['eip155:84532'],
          assets: [`eip155:84532|${SEPOLIA_USDC}`],
          amounts: [`upto|eip155:84532|${SEPOLIA_USDC}=10000`],
          timeouts: [300],
        }),
      ]);
      await computeAt(store, dir, at(T0, 5));
      const changes = await store.all<{ kinds: string[] }>(
        `SELECT kinds FROM terms_changes WHERE service_id = 'cand_k' ORDER BY changed_at`,
      );
      expect(changes.map((c) => c.kinds)).toEqual([['asset'], ['scheme', 'version'], ['other'], ['network_added', 'network_removed']]);
      expect(await summaryOf(store, 'cand_k')).toMatchObject({
        changes_30d: 4,
        latest_networks: ['eip155:84532'],
        latest_mainnet: false,
        limited: true,
      });
    });
  });
});
