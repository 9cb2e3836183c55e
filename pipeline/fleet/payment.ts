import { encodePaymentRequiredHeader } from '@x402/core/http';
import { NETWORKS, STABLECOINS } from '../../site/contract/networks.ts';
import type { EndpointSpec } from './plan.ts';
import { hash32, mulberry32 } from './prng.ts';
import { after, type Timeline } from './timeline.ts';

/**
 * Payment terms of fleet endpoints, built from the real USDC assets of site/contract/networks.ts so
 * prices are computable, and the v1/v2 payment-request objects made from them. Terms are a pure
 * function of (endpoint, time): nothing is stored per endpoint.
 */
export interface Offer {
  scheme: string;
  /** CAIP-2 id. */
  network: string;
  asset: string;
  /** Atomic units, digits only. */
  amount: string;
  payTo: string;
  maxTimeoutSeconds: number;
  extra?: Record<string, unknown>;
}

const BASE = 'eip155:8453';
const BASE_SEPOLIA = 'eip155:84532';
const POLYGON = 'eip155:137';
const SOLANA = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';
const SOLANA_DEVNET = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1';

/** A token on Base that is not a known stablecoin: offers with it have no computable price. */
export const UNKNOWN_ASSET = '0x4200000000000000000000000000000000000042';
/** A CAIP-2 id in no table: never counted as mainnet. */
export const UNKNOWN_NETWORK = 'eip155:999999';
/** The decoy price: 5,000 USDC per call (≥ DECOY_PRICE_USD). */
export const DECOY_AMOUNT = '5000000000';

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/**
 * Deterministic receiving address for a seed: 0x + 40 hex on EVM, 44 base58 characters on Solana.
 * Made with the seeded PRNG rather than a cryptographic hash: it runs once per offer per request.
 */
export function payToFor(network: string, seed: string): string {
  const rnd = mulberry32(hash32(seed));
  if (network.startsWith('solana:')) {
    let s = '';
    for (let i = 0; i < 44; i++) s += B58[Math.floor(rnd() * 58)];
    return s;
  }
  let hex = '0x';
  for (let i = 0; i < 5; i++)
    hex += Math.floor(rnd() * 0x100000000)
      .toString(16)
      .padStart(8, '0');
  return hex;
}

/** The coins the fleet pays in: one dollar coin per network it offers. */
const FLEET_SYMBOLS: ReadonlySet<string> = new Set(['USDC', 'USDT0', 'MegaUSD']);

function usdc(network: string): string {
  const coin = STABLECOINS.find((s) => s.caip2 === network && FLEET_SYMBOLS.has(s.symbol));
  if (!coin) throw new Error(`fleet: no stablecoin for ${network}`);
  return coin.asset;
}

function offer(network: string, amount: string | number, payToSeed: string, asset = usdc(network)): Offer {
  const o: Offer = {
    scheme: 'exact',
    network,
    asset,
    amount: String(amount),
    payTo: payToFor(network, payToSeed),
    maxTimeoutSeconds: 60,
  };
  if (network.startsWith('eip155:')) o.extra = { name: network === BASE ? 'USD Coin' : 'USDC', version: '2' };
  return o;
}

/** Mainnets with a known stablecoin, used to pad the large header with realistic offers. */
const PADDING_NETWORKS = STABLECOINS.filter(
  (s) =>
    s.currency === 'USD' &&
    NETWORKS.find((n) => n.caip2 === s.caip2)?.mainnet &&
    STABLECOINS.some((c) => c.caip2 === s.caip2 && FLEET_SYMBOLS.has(c.symbol)),
).map((s) => s.caip2);

/** Offers of an endpoint at time `at` (a registry shows the same terms). */
export function offersAt(spec: EndpointSpec, at: Date, tl: Timeline): Offer[] {
  const seed = `${spec.name}:payto`;
  switch (spec.behaviour) {
    case 'x402-v2-multi':
      return [offer(BASE, spec.amount, seed), offer(SOLANA, spec.amount, seed), offer(BASE_SEPOLIA, spec.amount, seed)];
    case 'x402-testnet-only':
      return [offer(BASE_SEPOLIA, spec.amount, seed), offer(SOLANA_DEVNET, spec.amount, seed)];
    case 'x402-price-change':
      return [offer(BASE, after(tl.priceChangeAt, at) ? spec.amount * 2 : spec.amount, seed)];
    case 'x402-payto-change':
      return [offer(BASE, spec.amount, after(tl.payToChangeAt, at) ? `${seed}:2` : seed)];
    case 'x402-network-added':
      return after(tl.networkAddedAt, at)
        ? [offer(BASE, spec.amount, seed), offer(POLYGON, spec.amount, seed)]
        : [offer(BASE, spec.amount, seed)];
    case 'x402-unknown-asset':
      return [offer(BASE, '1000000000000000', seed, UNKNOWN_ASSET)];
    case 'x402-decoy-price':
      return [offer(BASE, DECOY_AMOUNT, seed)];
    case 'x402-unknown-network':
      return [offer(UNKNOWN_NETWORK, spec.amount, seed, UNKNOWN_ASSET)];
    case 'x402-large-header': {
      // About 28 kB once base64-encoded: ~21 kB of JSON in offers across every priced mainnet.
      const out: Offer[] = [];
      let bytes = 0;
      for (let i = 0; bytes < 20_500; i++) {
        const net = PADDING_NETWORKS[i % PADDING_NETWORKS.length]!;
        const o = offer(net, spec.amount + i, `${seed}:${i}`);
        o.extra = { ...o.extra, note: `offer ${i} of a large payment request` };
        out.push(o);
        bytes += JSON.stringify(o).length + 1;
      }
      return out;
    }
    default:
      return [offer(BASE, spec.amount, seed)];
  }
}

export const describe = (spec: EndpointSpec): string => `Fleet endpoint ${spec.name} (${spec.behaviour})`;

/** Bazaar discovery extension (v2), as declared by @x402/extensions' declareDiscoveryExtension. */
export function bazaarExtension(spec: EndpointSpec): Record<string, unknown> {
  const input =
    spec.method === 'POST'
      ? { type: 'http', method: 'POST', bodyType: 'json', body: { query: 'example' } }
      : { type: 'http', method: spec.method, queryParams: { q: 'example' } };
  return {
    info: { input, output: { type: 'json', example: { ok: true } } },
    schema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { input: { type: 'object' } },
      required: ['input'],
    },
  };
}

/**
 * `x402-v2-cosmetic` carries 7 tags and a 40-character serviceName: @x402/core's schema rejects the
 * whole request for these metadata fields, which Atlas treats as cosmetic (payment-request.ts rule 4).
 */
function resourceInfo(spec: EndpointSpec, url: string): Record<string, unknown> {
  const r: Record<string, unknown> = { url, description: describe(spec), mimeType: 'application/json' };
  if (spec.behaviour === 'x402-v2-cosmetic') {
    r.serviceName = 'Fleet Cosmetic Metadata Example Service';
    r.tags = ['weather', 'forecast', 'climate', 'radar', 'alerts', 'history', 'maps'];
  }
  return r;
}

export function paymentRequiredV2(spec: EndpointSpec, url: string, offers: Offer[]): Record<string, unknown> {
  return {
    x402Version: 2,
    error: 'Payment required',
    resource: resourceInfo(spec, url),
    accepts: offers.map((o) => ({ ...o })),
    extensions: { bazaar: bazaarExtension(spec) },
  };
}

/** v1 network name where one exists (e.g. "base"); otherwise the CAIP-2 id. */
export const v1Name = (caip2: string): string => NETWORKS.find((n) => n.caip2 === caip2)?.v1Name ?? caip2;

export interface V1Style {
  /** The version the body claims (2 for the mislabelled behaviour). */
  x402Version: 1 | 2;
  /** Network spelling: v1 names ("base") or CAIP-2 ids. */
  networks: 'v1' | 'caip2';
  /** Override for maxAmountRequired (e.g. "$0.01"). */
  amountText?: string;
}

export function v1Accepts(spec: EndpointSpec, url: string, offers: Offer[], style: V1Style): Array<Record<string, unknown>> {
  return offers.map((o) => ({
    scheme: o.scheme,
    network: style.networks === 'v1' ? v1Name(o.network) : o.network,
    maxAmountRequired: style.amountText ?? o.amount,
    resource: url,
    description: describe(spec),
    mimeType: 'application/json',
    payTo: o.payTo,
    maxTimeoutSeconds: o.maxTimeoutSeconds,
    asset: o.asset,
    outputSchema: { input: { type: 'http', method: spec.method, discoverable: true }, output: null },
    extra: o.extra ?? null,
  }));
}

export function paymentRequiredV1(spec: EndpointSpec, url: string, offers: Offer[], style: V1Style): Record<string, unknown> {
  return { x402Version: style.x402Version, error: 'X-PAYMENT header is required', accepts: v1Accepts(spec, url, offers, style) };
}

/** The v1 wire style of a behaviour, or null when it speaks v2. */
export function v1StyleOf(spec: EndpointSpec): V1Style | null {
  switch (spec.behaviour) {
    case 'x402-v1':
      return { x402Version: 1, networks: 'v1' };
    case 'x402-v1-caip2':
      return { x402Version: 1, networks: 'caip2' };
    case 'x402-mislabelled':
      return { x402Version: 2, networks: 'v1' };
    case 'x402-dollar-amount':
      return { x402Version: 1, networks: 'v1', amountText: '$0.01' };
    default:
      return null;
  }
}

export type HeaderEncoding = 'x402-core' | 'buffer';

/**
 * The PAYMENT-REQUIRED header value. `x402-core` (default) is @x402/core's own encoder; `buffer` is
 * Node's base64 of the same UTF-8 JSON — byte-identical (a fleet test checks it on every payment
 * request of the default fleet) and far cheaper, for benchmarks where the fleet's CPU competes with
 * the prober's.
 */
export function encodeHeader(pr: Record<string, unknown>, encoding: HeaderEncoding = 'x402-core'): string {
  if (encoding === 'buffer') return Buffer.from(JSON.stringify(pr), 'utf8').toString('base64');
  return encodePaymentRequiredHeader(pr as unknown as Parameters<typeof encodePaymentRequiredHeader>[0]);
}
