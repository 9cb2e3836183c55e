/**
 * Payment networks and known stablecoins (docs/reference.md, Networks and prices, which cites the
 * issuer's or the chain's own document for every id, address and decimals). Pure data and lookups.
 * An id not in the table is unknown: never counted as mainnet. A coin pegged to another currency
 * (EURC) is recognised with its currency and never converted to dollars.
 */
export interface NetworkInfo {
  caip2: string;
  v1Name: string | null;
  mainnet: boolean;
}

const N = (caip2: string, v1Name: string | null, mainnet: boolean): NetworkInfo => ({ caip2, v1Name, mainnet });

export const NETWORKS: readonly NetworkInfo[] = [
  N('eip155:8453', 'base', true),
  N('eip155:84532', 'base-sepolia', false),
  N('eip155:43114', 'avalanche', true),
  N('eip155:43113', 'avalanche-fuji', false),
  N('eip155:137', 'polygon', true),
  N('eip155:80002', 'polygon-amoy', false),
  N('eip155:1329', 'sei', true),
  N('eip155:1328', 'sei-testnet', false),
  N('eip155:4689', 'iotex', true),
  N('eip155:3338', 'peaq', true),
  N('eip155:2741', 'abstract', true),
  N('eip155:11124', 'abstract-testnet', false),
  N('eip155:1514', 'story', true),
  N('eip155:41923', 'educhain', true),
  N('eip155:324705682', 'skale-base-sepolia', false),
  N('solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', 'solana', true),
  N('solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1', 'solana-devnet', false),
  N('solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z', 'solana-testnet', false),
  N('eip155:1', 'ethereum', true),
  N('eip155:11155111', 'sepolia', false),
  N('eip155:143', 'monad', true),
  N('eip155:4326', 'megaeth', true),
  N('eip155:988', 'stable', true),
  N('eip155:2201', 'stable-testnet', false),
  N('eip155:42220', 'celo', true),
  N('eip155:11142220', 'celo-sepolia', false),
  N('eip155:14', 'flare', true),
  N('eip155:50', 'xdc', true),
  N('eip155:51', 'xdc-apothem', false),
  N('eip155:42161', null, true),
  N('eip155:421614', null, false),
  N('eip155:480', null, true),
  N('eip155:4801', null, false),
  N('aptos:1', null, true),
  N('aptos:2', null, false),
  N('stellar:pubnet', null, true),
  N('stellar:testnet', null, false),
  // Arc (Circle's chain) and BNB Smart Chain, named by the x402 deployments that settle on them.
  N('eip155:5042', null, true),
  N('eip155:5042002', null, false),
  N('eip155:56', null, true),
  N('eip155:97', null, false),
  // Chains the reference x402 SDK ships a default asset for, marked mainnet or testnet as it marks them.
  N('eip155:31612', null, true),
  N('eip155:31611', null, false),
  N('eip155:723487', null, true),
  N('eip155:72344', null, false),
  N('eip155:36900', null, true),
  N('eip155:190415', null, true),
  N('eip155:181228', null, false),
  N('eip155:38833', null, true),
];

const BY_CAIP2 = new Map(NETWORKS.map((n) => [n.caip2, n]));
const BY_V1 = new Map(NETWORKS.filter((n) => n.v1Name).map((n) => [n.v1Name as string, n]));
/** Non-standard ids seen in the wild (alias → CAIP-2); the `networks` table lists every alias too. */
export const ALIASES: ReadonlyMap<string, string> = new Map<string, string>([
  ['solana:mainnet', 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'],
  ['solana:devnet', 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'],
  ['solana:testnet', 'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z'],
]);

const TEST_WORDS = /(sepolia|testnet|devnet|fuji|amoy|apothem|goerli)/i;

/** Normalize a v1 name or CAIP-2 id to CAIP-2 where known; unknown ids are returned trimmed as given. */
export function toCaip2(network: string): string {
  const n = network.trim();
  const alias = ALIASES.get(n.toLowerCase());
  if (alias) return alias;
  const v1 = BY_V1.get(n.toLowerCase());
  if (v1) return v1.caip2;
  return n;
}

export type NetworkKind = 'mainnet' | 'testnet' | 'unknown';

export function networkKind(network: string): NetworkKind {
  const info = BY_CAIP2.get(toCaip2(network));
  if (info) return info.mainnet ? 'mainnet' : 'testnet';
  return TEST_WORDS.test(network) ? 'testnet' : 'unknown';
}

/** Only known mainnets count as mainnet (docs/reference.md: never count an unknown id as mainnet). */
export const isMainnet = (network: string): boolean => networkKind(network) === 'mainnet';

/** The fiat currency a stablecoin is pegged to (ISO 4217). Only USD coins ever give a dollar price. */
export type Currency = 'USD' | 'EUR';

export interface Stablecoin {
  caip2: string;
  symbol: string;
  asset: string;
  decimals: number;
  currency: Currency;
  /** EVM addresses compare lower-cased; Solana and Stellar are case-sensitive. */
  caseSensitive: boolean;
}

const coin = (currency: Currency, caip2: string, symbol: string, asset: string, decimals: number): Stablecoin => ({
  caip2,
  symbol,
  asset,
  decimals,
  currency,
  caseSensitive: !caip2.startsWith('eip155:'),
});
const S = (caip2: string, symbol: string, asset: string, decimals: number) => coin('USD', caip2, symbol, asset, decimals);
const E = (caip2: string, symbol: string, asset: string, decimals: number) => coin('EUR', caip2, symbol, asset, decimals);

export const STABLECOINS: readonly Stablecoin[] = [
  S('eip155:8453', 'USDC', '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', 6),
  S('eip155:84532', 'USDC', '0x036CbD53842c5426634e7929541eC2318f3dCF7e', 6),
  S('eip155:1', 'USDC', '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', 6),
  S('eip155:43114', 'USDC', '0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E', 6),
  S('eip155:43113', 'USDC', '0x5425890298aed601595a70AB815c96711a31Bc65', 6),
  S('eip155:137', 'USDC', '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359', 6),
  S('eip155:80002', 'USDC', '0x41E94Eb019C0762f9Bfcf9Fb1E58725BfB0e7582', 6),
  S('eip155:42161', 'USDC', '0xaf88d065e77c8cC2239327C5EDb3A432268e5831', 6),
  S('eip155:421614', 'USDC', '0x75faf114eafb1BDbe2F0316DF893fd58CE46AA4d', 6),
  S('eip155:1329', 'USDC', '0xe15fC38F6D8c56aF07bbCBe3BAf5708A2Bf42392', 6),
  S('eip155:1328', 'USDC', '0x4fCF1784B31630811181f670Aea7A7bEF803eaED', 6),
  S('eip155:143', 'USDC', '0x754704Bc059F8C67012fEd69BC8A327a5aafb603', 6),
  S('eip155:988', 'USDT0', '0x779Ded0c9e1022225f8E0630b35a9b54bE713736', 6),
  S('eip155:4326', 'MegaUSD', '0xFAfDdbb3FC7688494971a79cc65DCa3EF82079E7', 18),
  S('eip155:42220', 'USDC', '0xcebA9300f2b948710d2653dD7B07f33A8B32118C', 6),
  S('eip155:50', 'USDC', '0xfA2958CB79b0491CC627c1557F441eF849Ca8eb1', 6),
  S('solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', 'USDC', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', 6),
  S('solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', 'USDT', 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB', 6),
  S('solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1', 'USDC', '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU', 6),
  S('stellar:pubnet', 'USDC', 'CCW67TSZV3SSS2HXMBQ5JFGCKJNXKZM7UQUWUZPUTHXSTZLEO7SJMI75', 7),
  // Arc: the USDC ERC-20 interface (6 decimals; the native gas balance behind it counts 18).
  S('eip155:5042', 'USDC', '0x3600000000000000000000000000000000000000', 6),
  S('eip155:5042002', 'USDC', '0x3600000000000000000000000000000000000000', 6),
  // BNB Smart Chain: Binance-Peg USDT ("BSC-USD") counts 18 decimals, not Ethereum USDT's 6.
  S('eip155:56', 'USDT', '0x55d398326f99059fF775485246999027B3197955', 18),
  // USD1 (World Liberty Financial): one address on Ethereum and BNB Smart Chain, 18 decimals there;
  // its Monad deployment is a different contract counting 6.
  S('eip155:56', 'USD1', '0x8d0D000Ee44948FC98c9B98A4FA4921476f08B0d', 18),
  S('eip155:1', 'USD1', '0x8d0D000Ee44948FC98c9B98A4FA4921476f08B0d', 18),
  S('eip155:143', 'USD1', '0x111111d2bf19e43C34263401e0CAd979eD1cdb61', 6),
  S('eip155:143', 'USDT0', '0xe7cd86e13AC4309349F30B3435a9d337750fC82D', 6),
  // World Chain and its Sepolia testnet.
  S('eip155:480', 'USDC', '0x79A02482A880bCE3F13e09Da970dC34db4CD24d1', 6),
  S('eip155:4801', 'USDC', '0x66145f38cBAC35Ca6F1Dfb4914dF98F1614aeA88', 6),
  // Euro coins: recognised (currency recorded), never priced in dollars.
  E('eip155:1', 'EURC', '0x1aBaEA1f7C830bD89Acc67eC4af516284b1bC33c', 6),
  E('eip155:8453', 'EURC', '0x60a3E35Cc302bFA44Cb288Bc5a4F316Fdb1adb42', 6),
  E('eip155:43114', 'EURC', '0xC891EB4cbdEFf6e073e859e987815Ed1505c2ACD', 6),
  E('eip155:5042002', 'EURC', '0x89B50855Aa3bE2F677cD6303Cec089B5F319D72a', 6),
];

export function findStablecoin(network: string, asset: string): Stablecoin | undefined {
  const caip2 = toCaip2(network);
  return STABLECOINS.find(
    (s) => s.caip2 === caip2 && (s.caseSensitive ? s.asset === asset : s.asset.toLowerCase() === asset.toLowerCase()),
  );
}

/** The currency of a known stablecoin (on any known network), or null for any other token. */
export function stablecoinCurrency(network: string, asset: string): Currency | null {
  return findStablecoin(network, asset)?.currency ?? null;
}

/**
 * Atomic amount (digits only) on a known USD stablecoin of a known MAINNET → USD; anything else →
 * null. Test-network tokens are not dollars (their terms stay visible in payment_terms), so a testnet
 * offer never sets a dollar price: not the registry price (price_usd), not min_price_usd. A coin
 * pegged to another currency (EURC) is never converted. What the amount means (the charge, or the
 * most a call can cost) is the scheme's business: pipeline/x402/prices.ts.
 */
export function usdPrice(network: string, asset: string, amount: string): number | null {
  if (!/^\d{1,78}$/.test(amount)) return null;
  if (!isMainnet(network)) return null;
  const found = findStablecoin(network, asset);
  if (found?.currency !== 'USD') return null;
  const units = BigInt(amount);
  const scale = 10n ** BigInt(found.decimals);
  // Keep 9 decimal places of precision without going through a lossy float of the whole amount.
  const micro = (units * 1_000_000_000n) / scale;
  return Number(micro) / 1e9;
}

/** Prices at or above this are known decoys: kept, but flagged. */
export const DECOY_PRICE_USD = 1000;
