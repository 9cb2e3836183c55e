/**
 * The published rule NEEDS_REVIEW_RULE (id and text, in the contract: site/contract/changes.ts) is
 * applied here: the changed lines (removed and added, after normalization) are scanned for tokens of
 * what a listing states, and the change needs review when the tokens of the removed lines differ
 * from those of the added lines.
 */
export { NEEDS_REVIEW_RULE } from '../../site/contract/changes.ts';

export type ReviewCategory = 'price' | 'network' | 'endpoint' | 'auth' | 'deprecation';

/** An amount: digits, optional thousands groups, optional decimals (unambiguous: no backtracking blow-up). */
const AMOUNT = String.raw`\d+(?:,\d{3})*(?:\.\d+)?`;
/** Only the start of a very long line is scanned (normalized lines are rarely longer). */
export const REVIEW_LINE_CHARS = 2000;

const PRICE_WORDS_RE = /\b(price[sd]?|pricing|fees?|costs?|per[ -](call|request|query|use))\b/i;
const PATTERNS: ReadonlyArray<[ReviewCategory, RegExp]> = [
  ['price', new RegExp(String.raw`\$\s?${AMOUNT}`, 'g')],
  ['price', new RegExp(String.raw`\b${AMOUNT}\s?(?:usdc|usdt|usd|cents?|dollars?)\b`, 'gi')],
  ['price', new RegExp(String.raw`\b(?:usdc|usdt|usd)\s?${AMOUNT}`, 'gi')],
  ['price', /\b(?:price[sd]?|pricing|fees?|per[ -](?:call|request|query|use))\b/gi],
  ['network', /\beip155:\d+\b|\bsolana:[1-9A-HJ-NP-Za-km-z]{6,}\b|\b(?:stellar|aptos):[a-z0-9]+\b/gi],
  [
    'network',
    /\b(?:base(?!\s*(?:url|path|64|line|d\b))|solana|ethereum|polygon|avalanche|arbitrum|optimism|sei|iotex|peaq|abstract chain|monad|megaeth|celo|xdc|stellar|aptos|sepolia|base-sepolia|devnet|testnet|mainnet)\b/gi,
  ],
  // Path-like tokens (`/v1/forecast`, `/items/{id}`) that stand alone, not inside a URL.
  ['endpoint', /(?<![\w.:/])\/[A-Za-z][\w\-.{}:]*(?:\/[\w\-.{}:]+)*/g],
  ['auth', /\b(?:api[ _-]?keys?|x-api-key|bearer|oauth2?|authori[sz]ation|authenticat\w*|login required|sign[ -]in required)\b/gi],
  [
    'deprecation',
    /\b(?:deprecat\w*|sunset\w*|discontinu\w*|removed|end[ -]of[ -]life|eol|shutting down|no longer (?:supported|available))\b/gi,
  ],
];

/** Tokens of one line as `category:token` (lower-cased, inner whitespace collapsed). */
export function reviewTokens(fullLine: string, endpointPaths: readonly string[]): string[] {
  const line = fullLine.slice(0, REVIEW_LINE_CHARS);
  const out: string[] = [];
  for (const [cat, re] of PATTERNS) {
    for (const m of line.matchAll(re)) out.push(`${cat}:${m[0].toLowerCase().replace(/\s+/g, ' ')}`);
  }
  if (PRICE_WORDS_RE.test(line)) for (const m of line.matchAll(new RegExp(String.raw`\b${AMOUNT}\b`, 'g'))) out.push(`price:${m[0]}`);
  for (const p of endpointPaths) if (p.length > 1 && line.includes(p)) out.push(`endpoint:${p}`);
  return out;
}

export interface ReviewVerdict {
  needs_review: boolean;
  /** `category:token` present on one side only (sorted, at most 20). */
  terms: string[];
  categories: ReviewCategory[];
}

function counts(lines: readonly string[], paths: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const l of lines) for (const t of reviewTokens(l, paths)) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
}

/** Apply NEEDS_REVIEW_RULE to the removed and added lines of a diff. */
export function reviewChange(removed: readonly string[], added: readonly string[], endpointPaths: readonly string[]): ReviewVerdict {
  const before = counts(removed, endpointPaths);
  const after = counts(added, endpointPaths);
  const differing = new Set<string>();
  for (const k of new Set([...before.keys(), ...after.keys()])) if ((before.get(k) ?? 0) !== (after.get(k) ?? 0)) differing.add(k);
  const terms = [...differing].sort();
  const categories = [...new Set(terms.map((t) => t.slice(0, t.indexOf(':')) as ReviewCategory))].sort();
  return { needs_review: terms.length > 0, terms: terms.slice(0, 20), categories };
}

/** Path parts of the listing's operation URLs (templated parts kept as written); '/' is ignored. */
export function endpointPathsOf(urls: readonly string[]): string[] {
  const out = new Set<string>();
  for (const u of urls) {
    try {
      const p = decodeURI(new URL(u).pathname);
      if (p.length > 1) out.add(p.replace(/\/$/, ''));
    } catch {
      /* not a URL: nothing to match */
    }
  }
  return [...out];
}
