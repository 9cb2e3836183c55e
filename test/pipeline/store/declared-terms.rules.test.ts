import { describe, expect, it } from 'vitest';
import { recordDeclared } from '../../../pipeline/ingest/declared-terms.ts';
import { NOTHING_DECLARED, type DeclaredValues } from '../../../pipeline/x402/declared.ts';
import type { Store } from '../../../pipeline/store/store.ts';
import {
  at,
  BASE_USDC,
  insertOperations,
  insertServices,
  insertTerms,
  makeOperation,
  makeService,
  makeTerms,
  T0,
} from '../compute/fixtures.ts';
import { withDb } from '../compute/helpers.ts';

/**
 * Rule declared-terms/1 (pipeline/store/rules.sql): a source's declaration against the live 402, per
 * dimension, as dated events and a current state. Real DuckDB; declarations recorded by the ingest
 * module itself (pipeline/ingest/declared-terms.ts).
 */
const SOL = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';
const BASE = 'eip155:8453';
const catalog = { kind: 'catalog' as const, name: 'cdp' };
const base: DeclaredValues = {
  price_usd: 0.01,
  max_price_usd: null,
  networks: [BASE],
  assets: [`${BASE}|${BASE_USDC}`],
  schemes: ['exact'],
  pay_to_hashes: ['payto-a'],
};

async function setup(store: Store, id = 'cand_a') {
  await insertServices(store, [makeService({ id })]);
  await insertOperations(store, [makeOperation({ service_id: id })]);
}

const iso = (v: unknown) => (v === null ? null : new Date(`${String(v).replace(' ', 'T')}Z`).toISOString());

async function events(store: Store, hi: string) {
  const rows = await store.all<Record<string, unknown>>(
    `SELECT source_kind, source, dimension, began_at::VARCHAR AS began_at, ended_at::VARCHAR AS ended_at,
       declared_value::VARCHAR AS declared_value, observed_value::VARCHAR AS observed_value, observed_at::VARCHAR AS observed_at
     FROM atlas_declared_differences($1::TIMESTAMP) ORDER BY dimension, began_at`,
    [hi.replace('Z', '')],
  );
  return rows.map((r) => ({
    ...(r as { source_kind: string; source: string; dimension: string; declared_value: string | null; observed_value: string | null }),
    began_at: iso(r.began_at),
    ended_at: iso(r.ended_at),
    observed_at: iso(r.observed_at),
  }));
}

async function state(store: Store, hi: string) {
  return store.all<Record<string, unknown>>(
    'SELECT service_id, differs, dimensions, since::VARCHAR AS since, sources_compared FROM atlas_declared_state($1::TIMESTAMP)',
    [hi.replace('Z', '')],
  );
}

describe('rule declared-terms/1', () => {
  it('agreeing terms: compared, no difference, no event', async () => {
    await withDb(async (store) => {
      await setup(store);
      await recordDeclared(store, catalog, [{ service_id: 'cand_a', values: base }], T0, true);
      await insertTerms(store, [makeTerms({ service_id: 'cand_a', observed_at: at(T0, 1) })]);
      expect(await events(store, at(T0, 2))).toEqual([]);
      expect(await state(store, at(T0, 2))).toEqual([
        { service_id: 'cand_a', differs: false, dimensions: [], since: null, sources_compared: 1 },
      ]);
    });
  });

  it('a price difference is an event from the observation that showed it until the one that agreed again', async () => {
    await withDb(async (store) => {
      await setup(store);
      await recordDeclared(store, catalog, [{ service_id: 'cand_a', values: base }], T0, true);
      await insertTerms(store, [
        makeTerms({ service_id: 'cand_a', observed_at: at(T0, 1), min_price_usd: 0.05, amounts: [`exact|${BASE}|${BASE_USDC}=50000`] }),
        makeTerms({ service_id: 'cand_a', observed_at: at(T0, 2), min_price_usd: 0.05, amounts: [`exact|${BASE}|${BASE_USDC}=50000`] }),
      ]);
      const open = await events(store, at(T0, 2, 12));
      expect(open).toEqual([
        {
          source_kind: 'catalog',
          source: 'cdp',
          dimension: 'price',
          began_at: at(T0, 1),
          ended_at: null,
          declared_value: '0.01',
          observed_value: '0.05',
          observed_at: at(T0, 1),
        },
      ]);
      expect((await state(store, at(T0, 2, 12)))[0]).toMatchObject({ differs: true, dimensions: ['price'], sources_compared: 1 });
      // the seller comes back into agreement at day 3
      await insertTerms(store, [makeTerms({ service_id: 'cand_a', observed_at: at(T0, 3) })]);
      const closed = await events(store, at(T0, 4));
      expect(closed).toHaveLength(1);
      expect(closed[0]).toMatchObject({ dimension: 'price', began_at: at(T0, 1), ended_at: at(T0, 3) });
      expect((await state(store, at(T0, 4)))[0]).toMatchObject({ differs: false, dimensions: [] });
      // as of an instant before the return, it was still open
      expect((await events(store, at(T0, 2, 12)))[0]!.ended_at).toBeNull();
    });
  });

  it('network, asset, scheme and payee differences; a maximum is compared only with a maximum', async () => {
    await withDb(async (store) => {
      await setup(store);
      await recordDeclared(store, catalog, [{ service_id: 'cand_a', values: { ...base, max_price_usd: 0.2 } }], T0, true);
      await insertTerms(store, [
        makeTerms({
          service_id: 'cand_a',
          observed_at: at(T0, 1),
          networks: [BASE, SOL],
          schemes: ['upto'],
          assets: [`${BASE}|0xdead`, `${SOL}|EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v`],
          pay_to_hashes: ['payto-b'],
          min_price_usd: null,
          max_price_usd: 0.1,
        } as never),
      ]);
      const dims = (await events(store, at(T0, 2))).map((e) => e.dimension);
      // price: the live 402 states no exact price, so nothing to compare (the scheme difference says why)
      expect(dims).toEqual(['asset', 'max_price', 'network', 'pay_to', 'scheme']);
      const ev = await events(store, at(T0, 2));
      // the values are the whole declared and observed sets; only the networks both name were compared
      expect(ev.find((e) => e.dimension === 'asset')).toMatchObject({
        declared_value: `["${BASE}|${BASE_USDC}"]`,
        observed_value: `["${BASE}|0xdead","${SOL}|EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"]`,
      });
      expect(ev.find((e) => e.dimension === 'pay_to')).toMatchObject({ declared_value: null, observed_value: null });
    });
  });

  it('a source that states nothing about a dimension has no difference there; one that stops declaring ends its events', async () => {
    await withDb(async (store) => {
      await setup(store);
      // a seller document stating its network only
      const wk = { kind: 'well_known' as const, name: 'well-known:a.example' };
      await recordDeclared(store, wk, [{ service_id: 'cand_a', values: { ...NOTHING_DECLARED, networks: [SOL] } }], T0, true);
      await insertTerms(store, [makeTerms({ service_id: 'cand_a', observed_at: at(T0, 1), min_price_usd: 0.5 })]);
      expect((await events(store, at(T0, 2))).map((e) => [e.source_kind, e.dimension])).toEqual([['well_known', 'network']]);
      // its next complete read no longer lists the service: the declaration ends, so does the event
      await recordDeclared(store, wk, [], at(T0, 3), true);
      const ev = await events(store, at(T0, 4));
      expect(ev[0]).toMatchObject({ began_at: at(T0, 1), ended_at: at(T0, 3) });
      expect(await state(store, at(T0, 4))).toEqual([]);
    });
  });

  it('a declaration read again unchanged moves read_at only; a changed one adds a dated row', async () => {
    await withDb(async (store) => {
      await setup(store);
      expect(await recordDeclared(store, catalog, [{ service_id: 'cand_a', values: base }], T0, true)).toBe(1);
      expect(await recordDeclared(store, catalog, [{ service_id: 'cand_a', values: base }], at(T0, 1), true)).toBe(0);
      expect(await recordDeclared(store, catalog, [{ service_id: 'cand_a', values: { ...base, price_usd: 0.02 } }], at(T0, 2), true)).toBe(
        1,
      );
      const rows = await store.all<{ since: string; read_at: string; price_usd: number }>(
        'SELECT since::VARCHAR AS since, read_at::VARCHAR AS read_at, price_usd FROM declared_terms ORDER BY since',
      );
      expect(rows.map((r) => [iso(r.since), iso(r.read_at), r.price_usd])).toEqual([
        [T0, at(T0, 1), 0.01],
        [at(T0, 2), at(T0, 2), 0.02],
      ]);
      // the declaration changed while the live 402 stayed: the difference begins at the new declaration
      await insertTerms(store, [makeTerms({ service_id: 'cand_a', observed_at: at(T0, 0.5) })]);
      expect(await events(store, at(T0, 3))).toMatchObject([
        {
          dimension: 'price',
          began_at: at(T0, 2),
          ended_at: null,
          declared_value: '0.02',
          observed_value: '0.01',
          observed_at: at(T0, 0.5),
        },
      ]);
    });
  });
});
