import { RECEIPT_RULE, RECEIPT_WINDOW, type ReceiptReason } from '../../site/contract/outcome-receipt.ts';
import type { ReceiptSignature } from './receipt-signature.ts';

/**
 * Rule outcome-receipt/1 (site/contract/outcome-receipt.ts, docs/notes/outcome-receipts.md): the
 * verdict on one report's receipt from the signature step and the report's facts. Pure: the
 * signature step, the signer's keyed hash and the service's facts are computed by the caller
 * (pipeline/inbox/receipt-checks.ts). Every check is evaluated; the first failing one, in the
 * order of RECEIPT_REASONS, is the reason.
 */
export interface ReportFacts {
  /** The report's service, null when it names none or one Atlas does not track. */
  service: {
    /** The service's URL and its operations' URLs. */
    urls: readonly string[];
    /** Keyed hashes of every receiving address Atlas observed for the service (payment_terms.pay_to_hashes). */
    payToHashes: readonly string[];
  } | null;
  reportedAt: Date | null;
  receivedAt: Date;
  /** An earlier report (by received_at, then id) carried the same signature. */
  reused: boolean;
}

export interface ReceiptVerdict {
  state: 'verified' | 'not_verified';
  reason: ReceiptReason | null;
  detail: string | null;
  format: 'eip712' | 'jws' | null;
  signature: ReceiptSignature['signature'];
  signerHash: string | null;
  resourceMatch: boolean | null;
  issuedAt: Date | null;
  windowLo: Date;
  windowHi: Date;
  rule: typeof RECEIPT_RULE;
}

const HOUR_MS = 3_600_000;

/** The issuedAt window of a report (RECEIPT_WINDOW), both ends inclusive. */
export function receiptWindow(reportedAt: Date | null, receivedAt: Date): { lo: Date; hi: Date } {
  const anchor = reportedAt ?? receivedAt;
  return {
    lo: new Date(anchor.getTime() - RECEIPT_WINDOW.beforeHours * HOUR_MS),
    hi: new Date(receivedAt.getTime() + RECEIPT_WINDOW.afterMinutes * 60_000),
  };
}

/**
 * One URL as compared: WHATWG parsing (scheme and host lower-cased, default port dropped, dot
 * segments resolved), without the fragment and without one trailing slash of the path. Null when
 * not an http(s) URL.
 */
export function comparableUrl(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  const path = u.pathname.length > 1 ? u.pathname.replace(/\/$/, '') : u.pathname;
  return `${u.protocol}//${u.host}${path}${u.search}`;
}

/** The receipt's resourceUrl names the service: equal, as compared, to its URL or one of its operations'. */
export function sameResource(resourceUrl: unknown, urls: readonly string[]): boolean {
  const r = typeof resourceUrl === 'string' ? comparableUrl(resourceUrl) : null;
  return r !== null && urls.some((u) => comparableUrl(u) === r);
}

/** issuedAt (Unix seconds) as a Date, null when not a usable number. */
function issuedAtOf(v: unknown): Date | null {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? new Date(v * 1000) : null;
}

export function receiptVerdict(sig: ReceiptSignature, signerHash: string | null, facts: ReportFacts): ReceiptVerdict {
  const { lo, hi } = receiptWindow(facts.reportedAt, facts.receivedAt);
  const p = sig.payload;
  const issuedAt = issuedAtOf(p?.issuedAt);
  const readable = p !== null && p.version === 1 && issuedAt !== null && typeof p.resourceUrl === 'string';
  const resourceMatch = facts.service && p ? sameResource(p.resourceUrl, facts.service.urls) : null;
  const inWindow = issuedAt !== null && issuedAt.getTime() >= lo.getTime() && issuedAt.getTime() <= hi.getTime();
  const payees = facts.service?.payToHashes ?? [];
  const failures: Array<[boolean, ReceiptReason, string | null]> = [
    [!readable && sig.signature !== 'invalid', 'malformed', p === null ? 'payload_unreadable' : 'payload_not_version_1'],
    [facts.service === null, 'no_service', null],
    [sig.signature === 'invalid', 'signature_invalid', sig.detail],
    [sig.signature === 'not_checked', 'signature_not_checked', sig.detail],
    [resourceMatch !== true, 'resource_mismatch', null],
    [!inWindow, 'issued_outside_window', null],
    [payees.length === 0, 'no_observed_payee', null],
    [
      signerHash === null || !payees.includes(signerHash),
      'signer_not_payee',
      signerHash === null ? (sig.detail ?? 'no_signer') : 'key_not_payee',
    ],
    [facts.reused, 'receipt_reused', null],
  ];
  const first = failures.find(([failed]) => failed);
  return {
    state: first ? 'not_verified' : 'verified',
    reason: first ? first[1] : null,
    detail: first ? first[2] : null,
    format: sig.format,
    signature: sig.signature,
    signerHash,
    resourceMatch,
    issuedAt,
    windowLo: lo,
    windowHi: hi,
    rule: RECEIPT_RULE,
  };
}
