import { SignedOffers } from '../../site/contract/offer-receipt.ts';
import type { Mismatch } from './compare.ts';

/**
 * Compare a published service's `signed_offers` with the rule recomputed at the compute instant
 * (query SERVICE_SIGNED_OFFERS, macro atlas_signed_offers_as_of). `row` undefined: no state, so the
 * published member must be null. Every member is compared; lists as JSON text.
 */
export type SignedOffersRow = Record<string, unknown> & { service_id: string };

const FIELDS = Object.keys(SignedOffers.shape) as Array<keyof SignedOffers>;

function normal(field: keyof SignedOffers, v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (field === 'reasons') {
    const list = typeof v === 'string' ? (JSON.parse(v) as unknown) : v;
    return JSON.stringify(list);
  }
  if (Array.isArray(v)) return JSON.stringify(v.map(String));
  if (typeof v === 'bigint') return v.toString();
  return typeof v === 'number' ? String(v) : JSON.stringify(v).replace(/^"(\d+)"$/, '$1');
}

export function compareSignedOffers(published: unknown, row: SignedOffersRow | undefined): Mismatch[] {
  const body = (published ?? {}) as Record<string, unknown>;
  const id = String(body.id);
  const p = (body.signed_offers ?? null) as Record<string, unknown> | null;
  if (!row) return p === null ? [] : [{ id, field: 'signed_offers', published: 'present', recomputed: null }];
  if (p === null) return [{ id, field: 'signed_offers', published: null, recomputed: 'present' }];
  const out: Mismatch[] = [];
  for (const f of FIELDS)
    if (normal(f, p[f]) !== normal(f, row[f])) out.push({ id, field: `signed_offers.${f}`, published: p[f], recomputed: row[f] });
  return out;
}
