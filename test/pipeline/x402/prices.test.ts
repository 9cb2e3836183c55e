import { describe, expect, it } from 'vitest';
import { materializeDerived } from '../../../pipeline/compute/derived.ts';
import { mergeDiscovered, normalizeX402Item } from '../../../pipeline/ingest/index.ts';
import { networkKind, STABLECOINS, stablecoinCurrency, usdPrice } from '../../../site/contract/networks.ts';
import { lowestPrices, priceKindOf } from '../../../pipeline/x402/prices.ts';
import { normalizeTerms } from '../../../pipeline/x402/terms.ts';
import type { RawOffer } from '../../../pipeline/x402/payment-request.ts';
import { ServiceSummaryFile } from '../../../site/contract/index.ts';
import { summaryOf } from '../../../pipeline/publish/rows.ts';
import { x402Item } from '../ingest/support.ts';
import { withDb } from '../compute/helpers.ts';

/**
 * Every known stablecoin priced once. The decimals are written here by hand as the coin's issuer or
 * chain documents them (docs/reference.md, Networks and prices), never read from the code's table,
 * and each coin gets the same offer of AMOUNT base units, so the expected dollars are AMOUNT /
 * 10^decimals: a wrong `decimals` in the table (or a euro coin priced as dollars, or a testnet token
 * priced at all) fails its row. AMOUNT is large enough that every decimals count from 6 to 18 gives
 * a figure well inside the 9 decimal places prices keep, so a difference of one decimal always shows.
 * A coin added to the table without a row here fails the first test.
 */
const AMOUNT = '123000000000000000000';

/** `usd`: a dollar coin on a mainnet (priced); `testnet`: never dollars; `eur`: recognised, never converted. */
const EXPECTED: Record<string, { decimals: number; kind: 'usd' | 'testnet' | 'eur' }> = {
  // USDC, USDT and USDT0 counting 6
  'eip155:8453|0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913': { decimals: 6, kind: 'usd' },
  'eip155:1|0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48': { decimals: 6, kind: 'usd' },
  'eip155:43114|0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E': { decimals: 6, kind: 'usd' },
  'eip155:137|0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359': { decimals: 6, kind: 'usd' },
  'eip155:42161|0xaf88d065e77c8cC2239327C5EDb3A432268e5831': { decimals: 6, kind: 'usd' },
  'eip155:1329|0xe15fC38F6D8c56aF07bbCBe3BAf5708A2Bf42392': { decimals: 6, kind: 'usd' },
  'eip155:143|0x754704Bc059F8C67012fEd69BC8A327a5aafb603': { decimals: 6, kind: 'usd' },
  'eip155:143|0xe7cd86e13AC4309349F30B3435a9d337750fC82D': { decimals: 6, kind: 'usd' },
  'eip155:988|0x779Ded0c9e1022225f8E0630b35a9b54bE713736': { decimals: 6, kind: 'usd' },
  'eip155:42220|0xcebA9300f2b948710d2653dD7B07f33A8B32118C': { decimals: 6, kind: 'usd' },
  'eip155:50|0xfA2958CB79b0491CC627c1557F441eF849Ca8eb1': { decimals: 6, kind: 'usd' },
  'eip155:480|0x79A02482A880bCE3F13e09Da970dC34db4CD24d1': { decimals: 6, kind: 'usd' },
  'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp|EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v': { decimals: 6, kind: 'usd' },
  'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp|Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB': { decimals: 6, kind: 'usd' },
  // Arc: the USDC ERC-20 interface counts 6 (the native balance behind it counts 18)
  'eip155:5042|0x3600000000000000000000000000000000000000': { decimals: 6, kind: 'usd' },
  // USD1 on Monad is its own contract, counting 6
  'eip155:143|0x111111d2bf19e43C34263401e0CAd979eD1cdb61': { decimals: 6, kind: 'usd' },
  // Stellar assets count 7
  'stellar:pubnet|CCW67TSZV3SSS2HXMBQ5JFGCKJNXKZM7UQUWUZPUTHXSTZLEO7SJMI75': { decimals: 7, kind: 'usd' },
  // 18: MegaUSD, Binance-Peg USDT on BNB Smart Chain, USD1 on BNB Smart Chain and Ethereum
  'eip155:4326|0xFAfDdbb3FC7688494971a79cc65DCa3EF82079E7': { decimals: 18, kind: 'usd' },
  'eip155:56|0x55d398326f99059fF775485246999027B3197955': { decimals: 18, kind: 'usd' },
  'eip155:56|0x8d0D000Ee44948FC98c9B98A4FA4921476f08B0d': { decimals: 18, kind: 'usd' },
  'eip155:1|0x8d0D000Ee44948FC98c9B98A4FA4921476f08B0d': { decimals: 18, kind: 'usd' },
  // Test networks: their tokens are never dollars
  'eip155:84532|0x036CbD53842c5426634e7929541eC2318f3dCF7e': { decimals: 6, kind: 'testnet' },
  'eip155:43113|0x5425890298aed601595a70AB815c96711a31Bc65': { decimals: 6, kind: 'testnet' },
  'eip155:80002|0x41E94Eb019C0762f9Bfcf9Fb1E58725BfB0e7582': { decimals: 6, kind: 'testnet' },
  'eip155:421614|0x75faf114eafb1BDbe2F0316DF893fd58CE46AA4d': { decimals: 6, kind: 'testnet' },
  'eip155:1328|0x4fCF1784B31630811181f670Aea7A7bEF803eaED': { decimals: 6, kind: 'testnet' },
  'eip155:4801|0x66145f38cBAC35Ca6F1Dfb4914dF98F1614aeA88': { decimals: 6, kind: 'testnet' },
  'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1|4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU': { decimals: 6, kind: 'testnet' },
  'eip155:5042002|0x3600000000000000000000000000000000000000': { decimals: 6, kind: 'testnet' },
  // Euro coins: recognised, never converted to dollars
  'eip155:1|0x1aBaEA1f7C830bD89Acc67eC4af516284b1bC33c': { decimals: 6, kind: 'eur' },
  'eip155:8453|0x60a3E35Cc302bFA44Cb288Bc5a4F316Fdb1adb42': { decimals: 6, kind: 'eur' },
  'eip155:43114|0xC891EB4cbdEFf6e073e859e987815Ed1505c2ACD': { decimals: 6, kind: 'eur' },
  'eip155:5042002|0x89B50855Aa3bE2F677cD6303Cec089B5F319D72a': { decimals: 6, kind: 'eur' },
};

/** AMOUNT base units in dollars, from the decimals written above (decimal shift, no float division). */
const dollarsOf = (decimals: number): number => Number(`${AMOUNT.slice(0, -decimals)}.${AMOUNT.slice(-decimals)}`);

const BASE = 'eip155:8453';
const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const BASE_EURC = '0x60a3E35Cc302bFA44Cb288Bc5a4F316Fdb1adb42';

const raw = (o: Partial<RawOffer> = {}): RawOffer => ({
  scheme: 'exact',
  network: BASE,
  caip2: BASE,
  asset: BASE_USDC,
  amount: '10000',
  payTo: '0x00000000000000000000000000000000000000aa',
  maxTimeoutSeconds: 60,
  ...o,
});

describe('every known stablecoin, priced with its own decimals', () => {
  it('the table of expected figures names exactly the coins of the table', () => {
    expect(STABLECOINS.map((c) => `${c.caip2}|${c.asset}`).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(Object.entries(EXPECTED))('%s', (key, want) => {
    const [network, asset] = key.split('|') as [string, string];
    const expected = want.kind === 'usd' ? dollarsOf(want.decimals) : null;
    const { exactUsd, maxUsd } = lowestPrices([{ scheme: 'exact', network, asset, amount: AMOUNT }]);
    if (expected === null) expect(exactUsd).toBeNull();
    else expect((exactUsd ?? 0) / expected).toBeCloseTo(1, 9);
    expect(maxUsd).toBeNull();
    expect(stablecoinCurrency(network, asset)).toBe(want.kind === 'eur' ? 'EUR' : 'USD');
    // The same coin under upto states a maximum of the same figure, never a price.
    const upto = lowestPrices([{ scheme: 'upto', network, asset, amount: AMOUNT }]);
    expect(upto.exactUsd).toBeNull();
    if (expected === null) expect(upto.maxUsd).toBeNull();
    else expect((upto.maxUsd ?? 0) / expected).toBeCloseTo(1, 9);
  });

  it('the expected figures differ by a factor of ten for one decimal more or less', () => {
    expect(dollarsOf(6)).toBe(123_000_000_000_000);
    expect(dollarsOf(7)).toBe(12_300_000_000_000);
    expect(dollarsOf(18)).toBe(123);
  });

  it('EVM addresses match in any case; Solana and Stellar only as written', () => {
    expect(usdPrice('eip155:56', '0x55D398326F99059FF775485246999027B3197955', '1000000000000000000')).toBe(1);
    expect(usdPrice('solana', 'epjfwdd5aufqssqem2qn1xzybapc8g4wegGkZwyTDt1v', '1000000')).toBeNull();
  });
});

describe('schemes and currencies', () => {
  it('exact states the charge; upto and batch-settlement a maximum; any other scheme nothing', () => {
    expect(['exact', 'upto', 'batch-settlement', 'deferred', 'Exact', ''].map(priceKindOf)).toEqual([
      'exact',
      'maximum',
      'maximum',
      null,
      null,
      null,
    ]);
  });

  it('records the currency of a known stablecoin: EUR for EURC, USD for USDC, null otherwise', () => {
    expect(stablecoinCurrency(BASE, BASE_EURC.toLowerCase())).toBe('EUR');
    expect(stablecoinCurrency('base', BASE_USDC)).toBe('USD');
    expect(stablecoinCurrency(BASE, '0x4200000000000000000000000000000000000042')).toBeNull();
  });

  it('observed terms: EURC never priced; upto a maximum; exact + upto priced at the exact; unknown scheme stored unpriced', () => {
    const eurc = normalizeTerms(2, [raw({ asset: BASE_EURC, amount: '10000' })], 's');
    expect(eurc.minPriceUsd).toBeNull();
    expect(eurc.maxPriceUsd).toBeNull();
    expect(eurc.currencies).toEqual([`${BASE}|${BASE_EURC.toLowerCase()}=EUR`]);

    const upto = normalizeTerms(2, [raw({ scheme: 'upto', amount: '1000000' })], 's');
    expect(upto.minPriceUsd).toBeNull();
    expect(upto.maxPriceUsd).toBe(1);

    const both = normalizeTerms(2, [raw({ scheme: 'upto', amount: '1000000' }), raw({ scheme: 'exact', amount: '250000' })], 's');
    expect(both.minPriceUsd).toBe(0.25);
    expect(both.maxPriceUsd).toBe(1);
    expect(both.schemes).toEqual(['exact', 'upto']);

    const unknown = normalizeTerms(2, [raw({ scheme: 'deferred', amount: '5000' })], 's');
    expect(unknown.offers.map((o) => [o.scheme, o.amount])).toEqual([['deferred', '5000']]);
    expect(unknown.schemes).toEqual(['deferred']);
    expect(unknown.amounts).toEqual([`deferred|${BASE}|${BASE_USDC.toLowerCase()}=5000`]);
    expect([unknown.minPriceUsd, unknown.maxPriceUsd]).toEqual([null, null]);
    expect(unknown.currencies).toEqual([`${BASE}|${BASE_USDC.toLowerCase()}=USD`]);
  });

  it('the prices and currencies never enter the terms hash', () => {
    const a = normalizeTerms(2, [raw({ scheme: 'upto' })], 's');
    const b = normalizeTerms(2, [raw({ scheme: 'exact' })], 's');
    expect(a.termsHash).not.toBe(b.termsHash); // the scheme is part of the terms
    const canonical = JSON.stringify({ version: 2, offers: b.offers });
    expect(canonical).not.toMatch(/USD|price/i);
  });
});

describe('registry offers → price_usd and max_price_usd (ingest, compute, publish)', () => {
  const item = (url: string, accepts: Record<string, unknown>[]) =>
    normalizeX402Item(x402Item(url, { x402Version: 2, accepts }), { pageVersion: 2, secret: 's' });
  const offer = (scheme: string, amount: string, asset = BASE_USDC) => ({
    scheme,
    network: BASE,
    amount,
    asset,
    payTo: '0x00000000000000000000000000000000000000aa',
    maxTimeoutSeconds: 60,
  });

  it('EURC → no price; upto only → price null, maximum shown; exact + upto → the exact; unknown scheme → unpriced', async () => {
    const cases = {
      eurc: item('https://eurc.example/a', [offer('exact', '10000', BASE_EURC)]),
      upto: item('https://upto.example/a', [offer('upto', '1000000')]),
      both: item('https://both.example/a', [offer('upto', '1000000'), offer('exact', '1000000'), offer('exact', '300000')]),
      batch: item('https://batch.example/a', [offer('batch-settlement', '40000'), offer('upto', '20000')]),
      unknown: item('https://unknown.example/a', [offer('deferred', '5000')]),
    };
    const records = Object.values(cases).map((c) => {
      if (!c.ok) throw new Error('fixture item did not normalize');
      return c.record;
    });
    await withDb(async (store) => {
      await mergeDiscovered(store, records, {
        registry: 'test',
        protocol: 'x402',
        now: new Date('2026-11-20T00:00:00Z'),
        delistMissing: false,
      });
      await materializeDerived(store, new Date('2026-11-25T00:00:00Z'));
      const rows = await store.all<{ host: string; price_usd: number | null; max_price_usd: number | null; price_source: string | null }>(
        `SELECT s.host, d.price_usd, d.max_price_usd, d.price_source FROM service_derived d JOIN services s ON s.id = d.service_id ORDER BY s.host`,
      );
      expect(rows).toEqual([
        { host: 'batch.example', price_usd: null, max_price_usd: 0.02, price_source: 'registry' },
        { host: 'both.example', price_usd: 0.3, max_price_usd: 1, price_source: 'registry' },
        { host: 'eurc.example', price_usd: null, max_price_usd: null, price_source: null },
        { host: 'unknown.example', price_usd: null, max_price_usd: null, price_source: null },
        { host: 'upto.example', price_usd: null, max_price_usd: 1, price_source: 'registry' },
      ]);
    });
  }, 30_000);

  it('the published summary carries both figures, contract-valid', () => {
    const base = {
      id: 'cand_upto',
      tier: 'discovered',
      type: 'api_endpoint',
      name: 'u',
      name_source: 'registry',
      host: 'upto.example',
      url: 'https://upto.example/a',
      method: 'GET',
      monitoring_since: '2026-11-01T00:00:00.000Z',
      networks_source: 'registry',
      has_derived: true,
      networks: [BASE],
      mainnet: true,
      check_interval_hours: 24,
      check_interval: 'daily',
      freshness: 'no_data',
    };
    const now = new Date('2026-11-25T12:00:00Z');
    const upto = summaryOf({ ...base, price_usd: null, max_price_usd: 1, price_source: 'registry' }, now);
    expect([upto.price_usd, upto.max_price_usd, upto.price_source]).toEqual([null, 1, 'registry']);
    expect(ServiceSummaryFile.safeParse(upto).error?.issues ?? []).toEqual([]);
    const none = summaryOf({ ...base, price_usd: null, max_price_usd: null, price_source: null }, now);
    expect([none.price_usd, none.max_price_usd, none.price_source]).toEqual([null, null, null]);
  });

  it('an unknown network id is still never a mainnet, and prices nothing', () => {
    expect(networkKind('eip155:999999')).toBe('unknown');
    expect(usdPrice('eip155:999999', BASE_USDC, '1000000')).toBeNull();
  });
});
