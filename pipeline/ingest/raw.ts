import { keyedHash } from '../core/secret.ts';
import { sanitizeText } from '../core/sanitize.ts';

/**
 * The registry item as received, kept for researchers in `services.registry_raw` — but as data we
 * can store safely: every string (keys too) goes through the one sanitizer and is capped, arrays and
 * objects are capped in size and depth, and receiving addresses (`payTo`) are replaced by a salted
 * hash because Atlas never publishes them (docs/api.md, `pay_to_changes_90d`). Pure: the secret is passed in.
 */
export const RAW_LIMITS = { string: 1000, key: 100, arrayItems: 50, objectKeys: 100, depth: 8, totalChars: 64 * 1024 } as const;

const PAY_TO_KEYS = new Set(['payto', 'pay_to']);

// Fast path for the common case (short printable ASCII, single spaces): already what the sanitizer returns.
const PLAIN_ASCII = /^[\x21-\x7E]+(?: [\x21-\x7E]+)*$/;

function cleanString(s: string, max: number): string {
  if (s.length <= max && PLAIN_ASCII.test(s)) return s;
  return sanitizeText(s, max) ?? '';
}

function walk(v: unknown, depth: number, secret: string): unknown {
  if (v === null || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string') return cleanString(v, RAW_LIMITS.string);
  if (depth >= RAW_LIMITS.depth) return '[depth capped]';
  if (Array.isArray(v)) {
    const out = v.slice(0, RAW_LIMITS.arrayItems).map((x) => walk(x, depth + 1, secret));
    if (v.length > RAW_LIMITS.arrayItems) out.push(`[${v.length - RAW_LIMITS.arrayItems} more items capped]`);
    return out;
  }
  if (typeof v === 'object') {
    const out: Record<string, unknown> = {};
    let n = 0;
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if (n++ >= RAW_LIMITS.objectKeys) {
        out._capped_keys = true;
        break;
      }
      const key = cleanString(k, RAW_LIMITS.key) || '_';
      if (PAY_TO_KEYS.has(key.toLowerCase()) && typeof x === 'string') {
        out[`${key}_hash`] = keyedHash(secret, 'pay_to', x.trim().toLowerCase()).slice(0, 32);
        continue;
      }
      out[key] = walk(x, depth + 1, secret);
    }
    return out;
  }
  return null; // undefined, functions, bigints: not JSON data
}

export function sanitizeRaw(value: unknown, secret: string): unknown {
  const out = walk(value, 0, secret);
  const size = JSON.stringify(out)?.length ?? 0;
  return size > RAW_LIMITS.totalChars ? { _truncated: true, _chars: size } : out;
}
