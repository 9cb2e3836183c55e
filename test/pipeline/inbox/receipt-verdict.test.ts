import { describe, expect, it } from 'vitest';
import type { SignerVerdict } from '../../../pipeline/x402/offer-receipt/authorise.ts';
import type { VerifiedArtifact } from '../../../pipeline/x402/offer-receipt/verify.ts';
import { comparableUrl, receiptVerdict, receiptWindow, type ReportFacts } from '../../../pipeline/inbox/receipt-verdict.ts';

/**
 * Rule outcome-receipt/1 as a table: one failing check per row, and the order of the reasons. The
 * signature and signer steps are pipeline/x402/offer-receipt's (tested there, and end to end with
 * independently signed receipts in receipt-checks.test.ts); here they are given.
 */
const RECEIVED = new Date('2026-11-25T12:00:00Z');
const URL_ = 'https://api.example.com/premium-data';
const sec = (d: Date) => Math.floor(d.getTime() / 1000);
const art = (over: Partial<VerifiedArtifact<'receipt'>> = {}, payload: Record<string, unknown> = {}): VerifiedArtifact<'receipt'> => ({
  kind: 'receipt',
  format: 'eip712',
  signature: 'valid',
  signer: { address: '0xabc', addressKind: 'evm' },
  payload: { version: 1, network: 'eip155:8453', resourceUrl: URL_, payer: '0x1', issuedAt: sec(RECEIVED) - 60, ...payload } as never,
  ...over,
});
const OK: SignerVerdict = { state: 'authorised', method: 'payee_key' };
const facts = (over: Partial<ReportFacts> = {}): ReportFacts => ({
  service: { urls: [URL_] },
  reportedAt: null,
  receivedAt: RECEIVED,
  reused: false,
  ...over,
});

describe('receiptVerdict (outcome-receipt/1)', () => {
  const cases: Array<[string, VerifiedArtifact<'receipt'>, SignerVerdict, ReportFacts, string | null, string | null]> = [
    ['every check passes', art(), OK, facts(), null, null],
    [
      'payload version 2',
      art({ signature: 'not_checked', reason: 'unsupported_version', payload: undefined }),
      OK,
      facts(),
      'malformed',
      'unsupported_version',
    ],
    ['no service', art(), OK, facts({ service: null }), 'no_service', null],
    [
      'JWS signature mismatch',
      art({ format: 'jws', signature: 'invalid', reason: 'signature_mismatch' }),
      OK,
      facts(),
      'signature_invalid',
      'signature_mismatch',
    ],
    [
      'did:web key',
      art({ format: 'jws', signature: 'not_checked', reason: 'did_web_not_resolved' }),
      OK,
      facts(),
      'signature_not_checked',
      'did_web_not_resolved',
    ],
    ['another resource', art({}, { resourceUrl: 'https://api.example.com/other' }), OK, facts(), 'resource_mismatch', null],
    ['issued 25 hours before', art({}, { issuedAt: sec(RECEIVED) - 25 * 3600 }), OK, facts(), 'issued_outside_window', null],
    ['issued 6 minutes after receipt', art({}, { issuedAt: sec(RECEIVED) + 360 }), OK, facts(), 'issued_outside_window', null],
    [
      'no payee observed',
      art(),
      { state: 'not_checked', method: 'payee_key', reason: 'no_payee_known' },
      facts(),
      'no_observed_payee',
      null,
    ],
    [
      'signer is not the payee',
      art(),
      { state: 'not_authorised', method: 'payee_key', reason: 'key_not_payee' },
      facts(),
      'signer_not_payee',
      'key_not_payee',
    ],
    [
      'a P-256 key cannot be a payee key',
      art({ format: 'jws' }),
      { state: 'not_checked', method: 'payee_key', reason: 'key_has_no_address' },
      facts(),
      'signer_not_payee',
      'key_has_no_address',
    ],
    ['same signature reported before', art(), OK, facts({ reused: true }), 'receipt_reused', null],
    [
      'first reason wins: resource and window both fail',
      art({}, { resourceUrl: 'https://x.test/', issuedAt: 1 }),
      OK,
      facts(),
      'resource_mismatch',
      null,
    ],
  ];
  it.each(cases)('%s', (_name, v, auth, f, reason, detail) => {
    const out = receiptVerdict(v, auth, null, f);
    expect(out.reason).toBe(reason);
    expect(out.detail).toBe(detail);
    expect(out.state).toBe(reason === null ? 'verified' : 'not_verified');
    expect(out.rule).toBe('outcome-receipt/1');
  });

  it('window: 24 hours before reported_at (else received_at) to 5 minutes after received_at, ends included', () => {
    const reported = new Date('2026-11-25T10:00:00Z');
    expect(receiptWindow(reported, RECEIVED)).toEqual({ lo: new Date('2026-11-24T10:00:00Z'), hi: new Date('2026-11-25T12:05:00Z') });
    expect(receiptWindow(null, RECEIVED).lo).toEqual(new Date('2026-11-24T12:00:00Z'));
    const lo = sec(new Date('2026-11-24T10:00:00Z'));
    expect(receiptVerdict(art({}, { issuedAt: lo }), OK, null, facts({ reportedAt: reported })).state).toBe('verified');
    expect(receiptVerdict(art({}, { issuedAt: lo - 1 }), OK, null, facts({ reportedAt: reported })).reason).toBe('issued_outside_window');
    expect(receiptVerdict(art({}, { issuedAt: sec(RECEIVED) + 300 }), OK, null, facts()).state).toBe('verified');
  });

  it('resource comparison: case of scheme and host, default port, fragment and one trailing slash ignored', () => {
    expect(comparableUrl('HTTPS://API.Example.com:443/premium-data/#x')).toBe(comparableUrl(URL_));
    expect(comparableUrl('https://api.example.com/premium-data?a=1')).not.toBe(comparableUrl(URL_));
    expect(comparableUrl('http://api.example.com/premium-data')).not.toBe(comparableUrl(URL_));
    expect(comparableUrl('ftp://api.example.com/')).toBeNull();
    // An operation's URL counts as the service's.
    const v = receiptVerdict(
      art({}, { resourceUrl: 'https://api.example.com/op2' }),
      OK,
      null,
      facts({ service: { urls: [URL_, 'https://api.example.com/op2'] } }),
    );
    expect(v.state).toBe('verified');
  });
});
