import { API_STATUS } from '../../site/contract/common.ts';
import type { KeyRecord } from '../../site/contract/inbox-records.ts';
import { KeyRequestSchema } from '../../site/contract/requests.ts';
import type { KeyCreated } from '../../site/contract/writes.ts';
import { addressHash } from '../auth/address.ts';
import { hashKey, newKey } from '../auth/keys.ts';
import type { AppDeps } from '../deps.ts';
import { parseBody } from './body.ts';
import { dailyLimit, dailyLimitReached, keyLimits } from './limits.ts';

/**
 * POST /api/v1/keys (docs/design.md, keys): open; optional body {label, contact}. The key value is in
 * this answer only; the log and the database keep its sha256. At most 3 new keys per address per
 * UTC day (429 beyond). The record is durable (fsynced, or committed) before this resolves.
 */
export async function createKey(deps: AppDeps, body: unknown, address: string): Promise<KeyCreated> {
  const req = parseBody(KeyRequestSchema, body ?? {}, 'key request');
  const who = addressHash(deps.secret, address);
  const now = deps.clock();
  const { key, keyId } = newKey(deps.random);
  const rec: KeyRecord = {
    key_id: keyId,
    key_hash: hashKey(key),
    label: req.label ?? null,
    contact: req.contact ?? null,
    created_at: now.toISOString(),
    address_hash: who,
  };
  const limit = dailyLimit(deps, 'keys');
  if (!(await deps.writes.addKey(rec, limit))) throw dailyLimitReached(deps, limit ?? 0, 'new keys');
  return {
    api_status: API_STATUS,
    key,
    key_id: keyId,
    created_at: rec.created_at,
    limits: keyLimits(deps),
    note: 'This is the only time the key is shown; Atlas stores only its hash. Send it as Authorization: Bearer <key> or X-API-Key: <key>.',
  };
}
