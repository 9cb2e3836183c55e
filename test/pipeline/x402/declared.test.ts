import { describe, expect, it } from 'vitest';
import { listingDeclared, listingRows } from '../../../pipeline/ingest/listings/rows.ts';
import { ListingSchema } from '../../../pipeline/ingest/listings/schema.ts';
import { registryDeclared } from '../../../pipeline/ingest/x402/normalize.ts';
import { parseWellKnown } from '../../../pipeline/ingest/well-known/parse.ts';
import { wellKnownRecords } from '../../../pipeline/ingest/well-known/records.ts';
import { declaredOfOffers, declaredValuesHash, NOTHING_DECLARED } from '../../../pipeline/x402/declared.ts';
import { normalizeTerms } from '../../../pipeline/x402/terms.ts';

/**
 * What a source declares (rule declared-terms/1), normalized exactly like the observed terms: the
 * same networks, assets, prices and receiving-address hashes as normalizeTerms gives the same offers.
 */
const SECRET = 'test-secret-0123456789abcdef';
const USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const PAY_TO = '0xAbCdEf0123456789aBcDeF0123456789AbCdEf01';

describe('declared values', () => {
  it('a catalog offer declares what the same offer in a live 402 would be observed as', () => {
    const declared = registryDeclared(
      [
        { scheme: 'exact', network: 'base', asset: USDC, maxAmountRequired: '10000', payTo: PAY_TO },
        { scheme: 'upto', network: 'eip155:8453', asset: `eip155:8453/erc20:${USDC}`, amount: '50000', payTo: PAY_TO.toLowerCase() },
      ],
      SECRET,
    );
    const observed = normalizeTerms(
      2,
      [
        { scheme: 'exact', network: 'base', caip2: 'eip155:8453', asset: USDC, amount: '10000', payTo: PAY_TO, maxTimeoutSeconds: 60 },
        {
          scheme: 'upto',
          network: 'eip155:8453',
          caip2: 'eip155:8453',
          asset: USDC,
          amount: '50000',
          payTo: PAY_TO,
          maxTimeoutSeconds: 60,
        },
      ],
      SECRET,
    );
    expect(declared).toEqual({
      price_usd: observed.minPriceUsd,
      max_price_usd: observed.maxPriceUsd,
      networks: observed.networks,
      assets: observed.assets,
      schemes: observed.schemes,
      pay_to_hashes: observed.payToHashes,
    });
    // the upto amount is a maximum, never a price
    expect(declared.price_usd).toBe(0.01);
    expect(declared.max_price_usd).toBe(0.05);
  });

  it("a seller document declares its entry's network and receiving address, never a price", () => {
    const doc = {
      endpoints: [
        { path: '/a', network: 'base', payTo: PAY_TO, price: '$0.01' },
        { path: '/b', price: '0.02' },
      ],
    };
    const [a, b] = wellKnownRecords(
      parseWellKnown(doc, { origin: 'https://seller.example', allowPrivate: false }),
      'https://seller.example',
      SECRET,
    );
    expect(a!.declared).toEqual({
      ...NOTHING_DECLARED,
      networks: ['eip155:8453'],
      pay_to_hashes: registryDeclared([{ network: 'base', payTo: PAY_TO }], SECRET).pay_to_hashes,
    });
    expect(b!.declared).toEqual(NOTHING_DECLARED);
  });

  it('what a source does not state stays null (never a difference)', () => {
    expect(declaredOfOffers([{ network: 'base' }], SECRET)).toEqual({ ...NOTHING_DECLARED, networks: ['eip155:8453'] });
    expect(registryDeclared([], SECRET)).toEqual(NOTHING_DECLARED);
    expect(declaredValuesHash(NOTHING_DECLARED)).not.toBe(declaredValuesHash({ ...NOTHING_DECLARED, networks: ['eip155:8453'] }));
  });

  it('a listing declares its price and networks claims with where they were checked; an inactive one nothing', () => {
    const listing = ListingSchema.parse({
      id: 'svc_demo',
      name: 'Demo',
      type: 'api_endpoint',
      operator: 'Demo Inc.',
      category: 'data',
      operations: [
        { id: 'primary', kind: 'call', primary: true, url: 'https://demo.example/api', expected_statuses: [402], interval: 'hourly' },
      ],
      sources: {
        operator: { source_url: 'https://demo.example/about', checked_at: '2026-11-01' },
        endpoint: { source_url: 'https://demo.example/docs', checked_at: '2026-11-01' },
      },
      claims: {
        price_usd: { value: 0.01, source_url: 'https://demo.example/pricing', checked_at: '2026-11-02' },
        networks: { value: ['base'], source_url: 'https://demo.example/pay', checked_at: '2026-11-03' },
      },
      approved_at: '2026-11-01T00:00:00Z',
    });
    const { service } = listingRows(listing, '/x/demo.json');
    expect(listingDeclared(service)).toEqual({
      service_id: 'svc_demo',
      values: { ...NOTHING_DECLARED, price_usd: 0.01, networks: ['eip155:8453'] },
      detail: {
        price_usd: { source_url: 'https://demo.example/pricing', checked_at: '2026-11-02' },
        networks: { source_url: 'https://demo.example/pay', checked_at: '2026-11-03' },
      },
    });
    expect(listingDeclared({ ...service, active: false })).toEqual({ service_id: 'svc_demo', values: NOTHING_DECLARED });
  });
});
