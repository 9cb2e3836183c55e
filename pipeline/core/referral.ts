import { createHmac, timingSafeEqual } from 'node:crypto';
import { DAY_MS } from './clock.ts';

/**
 * Referral ids (docs/design.md): signed tokens carrying (service id, key id, issue time), verified without
 * storage; valid 7 days. Format: `ref1.<base64url(service_id|key_id|issued_unix_seconds)>.<base64url(mac)>`
 * with mac = first 16 bytes of HMAC-SHA256(installation secret, "referral\0" + payload).
 * Issue times more than a minute in the server's future are rejected (a token from a skewed clock).
 */
export const REFERRAL_VALID_DAYS = 7;
const VALID_MS = REFERRAL_VALID_DAYS * DAY_MS;
const SKEW_MS = 60_000;

function mac(secret: string, payload: string): Buffer {
  return createHmac('sha256', secret).update(`referral\u0000${payload}`).digest().subarray(0, 16);
}

export function signReferral(secret: string, serviceId: string, keyId: string, issuedAt: Date): string {
  const payload = `${serviceId}|${keyId}|${Math.floor(issuedAt.getTime() / 1000)}`;
  return `ref1.${Buffer.from(payload).toString('base64url')}.${mac(secret, payload).toString('base64url')}`;
}

export type ReferralCheck =
  | { ok: true; serviceId: string; keyId: string; issuedAt: Date }
  | { ok: false; reason: 'malformed' | 'bad_signature' | 'expired' | 'not_yet_valid' };

export function verifyReferral(secret: string, token: string, now: Date): ReferralCheck {
  const m = /^ref1\.([A-Za-z0-9_-]{1,400})\.([A-Za-z0-9_-]{22})$/.exec(token);
  if (!m) return { ok: false, reason: 'malformed' };
  const payload = Buffer.from(m[1]!, 'base64url').toString('utf8');
  const given = Buffer.from(m[2]!, 'base64url');
  const want = mac(secret, payload);
  if (given.length !== want.length || !timingSafeEqual(given, want)) return { ok: false, reason: 'bad_signature' };
  const parts = payload.split('|');
  if (parts.length !== 3 || !/^\d{1,12}$/.test(parts[2]!)) return { ok: false, reason: 'malformed' };
  const issuedAt = new Date(Number(parts[2]) * 1000);
  const age = now.getTime() - issuedAt.getTime();
  if (age < -SKEW_MS) return { ok: false, reason: 'not_yet_valid' };
  if (age > VALID_MS) return { ok: false, reason: 'expired' };
  return { ok: true, serviceId: parts[0]!, keyId: parts[1]!, issuedAt };
}
