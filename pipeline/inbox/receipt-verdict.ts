import { RECEIPT_WINDOW } from '../../site/contract/outcome-receipt.ts';
import { RECEIPT_RULE, type ReceiptReason } from '../../site/contract/receipt-verdict.ts';
import { parseHttpUrl } from '../ingest/url.ts';
import type { SignerVerdict } from '../x402/offer-receipt/authorise.ts';
import type { VerifiedArtifact } from '../x402/offer-receipt/verify.ts';

/**
 * Rule outcome-receipt/1 (site/contract/outcome-receipt.ts, docs/notes/outcome-receipts.md): the
 * verdict on one report's receipt from the signature check and the signer check of
 * pipeline/x402/offer-receipt (the payee key itself, against the service's stored pay_to hashes)
 * and the report's facts. Pure: the caller (pipeline/inbox/receipt-checks.ts) runs those checks and
 * reads the facts. Every check is evaluated; the first failing one, in the order of
 * RECEIPT_REASONS, is the reason.
 */
export interface ReportFacts {
  /** The report's service, null when it names none or one Atlas does not track. */
  service: {
    /** The service's URL and its operations' URLs. */
    urls: readonly string[];
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
  signature: VerifiedArtifact['signature'];
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
  const u = parseHttpUrl(url);
  if (!u) return null;
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

/** The signature step's reason as a reason of the rule (an unsupported payload version is `malformed`). */
function signatureFailure(v: VerifiedArtifact<'receipt'>): [boolean, ReceiptReason, string | null][] {
  const r = v.reason ?? null;
  return [
    [v.signature !== 'valid' && (r === 'malformed' || r === 'unknown_format' || r === 'unsupported_version'), 'malformed', r],
    [v.signature === 'invalid', 'signature_invalid', r],
    [v.signature === 'not_checked', 'signature_not_checked', r],
  ];
}

/**
 * `signerHash`: the stored pay_to hash of the signer's address (null without one), kept with the
 * verdict. `auth`: signerAuthorised against the service's observed pay_to hashes.
 */
export function receiptVerdict(
  v: VerifiedArtifact<'receipt'>,
  auth: SignerVerdict,
  signerHash: string | null,
  facts: ReportFacts,
): ReceiptVerdict {
  const { lo, hi } = receiptWindow(facts.reportedAt, facts.receivedAt);
  const p = v.payload ?? null;
  const issuedAt = p ? issuedAtOf(p.issuedAt) : null;
  const resourceMatch = facts.service && p ? sameResource(p.resourceUrl, facts.service.urls) : null;
  const inWindow = issuedAt !== null && issuedAt.getTime() >= lo.getTime() && issuedAt.getTime() <= hi.getTime();
  const [malformed, ...signature] = signatureFailure(v);
  const failures: Array<[boolean, ReceiptReason, string | null]> = [
    malformed!,
    [facts.service === null, 'no_service', null],
    ...signature,
    [resourceMatch !== true, 'resource_mismatch', null],
    [!inWindow, 'issued_outside_window', null],
    [auth.reason === 'no_payee_known', 'no_observed_payee', null],
    [auth.state !== 'authorised', 'signer_not_payee', auth.reason ?? null],
    [facts.reused, 'receipt_reused', null],
  ];
  const first = failures.find(([failed]) => failed);
  return {
    state: first ? 'not_verified' : 'verified',
    reason: first ? first[1] : null,
    detail: first ? first[2] : null,
    format: v.format,
    signature: v.signature,
    signerHash,
    resourceMatch,
    issuedAt,
    windowLo: lo,
    windowHi: hi,
    rule: RECEIPT_RULE,
  };
}
