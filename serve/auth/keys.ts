import { createHash, randomBytes } from 'node:crypto';

/**
 * API keys (docs/design.md, keys): the value is shown once, in the creation response, and only its sha256 is
 * stored (keys are 256-bit random, so a plain hash is enough and survives a secret rotation).
 * `key_id` is public (it appears in receipts and the database); the key value never does.
 */
export const KEY_PREFIX = 'atlas_';

export function newKey(random: (n: number) => Buffer = randomBytes): { key: string; keyId: string } {
  return { key: `${KEY_PREFIX}${random(32).toString('base64url')}`, keyId: `key_${random(8).toString('hex')}` };
}

export const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex');

/** The two key headers (docs/design.md, keys): `Authorization: Bearer <key>` or `X-API-Key: <key>`; null when neither is sent. */
export function keyFromHeaders(get: (name: string) => string | undefined): string | null {
  const auth = get('authorization');
  if (auth) {
    const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(auth);
    if (m) return m[1]!;
  }
  const x = get('x-api-key')?.trim();
  return x ? x : null;
}
