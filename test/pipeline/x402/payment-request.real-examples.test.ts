import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { realdataDir } from '../../../pipeline/fleet/real-402.ts';
import { networkKind } from '../../../site/contract/networks.ts';
import { readPaymentRequest } from '../../../pipeline/x402/payment-request.ts';
import { normalizeTerms } from '../../../pipeline/x402/terms.ts';
import { realdataGate } from '../../helpers/realdata-gate.ts';

/**
 * Real 402 payment requests observed in 2026 (shared realdata, PROVENANCE.md), read by the code that
 * reads a probe's response and priced by the network table: Arc (arcgate), BNB Smart Chain with
 * Binance-Peg USDT at 18 decimals (bankofai), and Apify's upto + exact pair. The dollar figures are
 * worked out here from the raw amounts and the coins' documented decimals.
 */
const FILE = 'x402/real-402-examples-2026.json';
const gate = realdataGate('real 2026 payment requests priced (test/pipeline/x402/payment-request.real-examples.test.ts)', [FILE]);

interface Example {
  id: string;
  payment_required_header_verbatim?: string;
  payment_required_decoded_verbatim?: string;
  body_verbatim?: string;
}

describe.skipIf(!gate.present)('real 2026 payment requests, priced', () => {
  const examples = (): Map<string, Example> => {
    const doc = JSON.parse(readFileSync(join(realdataDir(), FILE), 'utf8')) as { examples: Example[] };
    return new Map(doc.examples.map((e) => [e.id, e]));
  };
  /** The request as the probe would read it: the header as given, or the decoded JSON re-encoded as the header. */
  const terms = (e: Example) => {
    const header =
      e.payment_required_header_verbatim ??
      Buffer.from(e.payment_required_decoded_verbatim ?? e.body_verbatim ?? '', 'utf8').toString('base64');
    const read = readPaymentRequest({ 'payment-required': header }, null);
    if (read.kind !== 'valid') throw new Error(`${e.id}: ${read.kind}: ${'detail' in read ? read.detail : ''}`);
    return normalizeTerms(read.version, read.offers, 'test-secret');
  };

  it('arcgate on Arc mainnet: exact 50000 of Arc USDC (6 decimals) = $0.05', () => {
    const t = terms(examples().get('arcgate-box-create-arc')!);
    expect(t.networks).toEqual(['eip155:5042']);
    expect(networkKind('eip155:5042')).toBe('mainnet');
    expect([t.minPriceUsd, t.maxPriceUsd]).toEqual([0.05, null]);
    expect(t.currencies).toEqual(['eip155:5042|0x3600000000000000000000000000000000000000=USD']);
  });

  it('bankofai on BNB Smart Chain: exact 1000000000000 of BSC-USD (18 decimals) = $0.000001', () => {
    const t = terms(examples().get('bankofai-dexscreener-bsc-usdt-permit2')!);
    expect(t.networks).toEqual(['eip155:56']);
    expect(networkKind('eip155:56')).toBe('mainnet');
    expect(t.minPriceUsd).toBe(0.000001);
    expect(t.maxPriceUsd).toBeNull();
    expect(t.currencies).toEqual(['eip155:56|0x55d398326f99059ff775485246999027b3197955=USD']);
  });

  it('Apify upto + exact on Base: the exact 1000000 (6 decimals) is the price, $1.00; the upto states a $1.00 maximum', () => {
    const e = examples().get('apify-upto-and-exact-x402-over-mcp')!;
    // Carried in an MCP tool result without a `resource` object, so as an HTTP 402 it is not a valid
    // v2 request (the reference schema requires resource); its offers are priced as given.
    const read = readPaymentRequest({ 'payment-required': Buffer.from(e.body_verbatim!, 'utf8').toString('base64') }, null);
    expect(read).toMatchObject({ kind: 'invalid', detail: expect.stringContaining('resource') });
    const body = JSON.parse(e.body_verbatim!) as { accepts: Record<string, unknown>[] };
    const offers = body.accepts.map((a) => ({
      scheme: String(a.scheme),
      network: String(a.network),
      caip2: String(a.network),
      asset: String(a.asset),
      amount: String(a.amount),
      payTo: String(a.payTo),
      maxTimeoutSeconds: Number(a.maxTimeoutSeconds),
    }));
    const t = normalizeTerms(2, offers, 'test-secret');
    expect(t.networks).toEqual(['eip155:8453']);
    expect(t.schemes).toEqual(['exact', 'upto']);
    expect([t.minPriceUsd, t.maxPriceUsd]).toEqual([1, 1]);
  });
});
