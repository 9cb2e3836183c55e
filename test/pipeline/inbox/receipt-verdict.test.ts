import { describe, expect, it } from 'vitest';
import type { ReceiptSignature } from '../../../pipeline/inbox/receipt-signature.ts';
import { comparableUrl, receiptVerdict, receiptWindow, type ReportFacts } from '../../../pipeline/inbox/receipt-verdict.ts';

/** Rule outcome-receipt/1 as a table: one failing check per row, and the order of the reasons. */
const RECEIVED = new Date('2026-11-25T12:00:00Z');
const URL_ = 'https://api.example.com/premium-data';
const sec = (d: Date) => Math.floor(d.getTime() / 1000);
const sig = (over: Partial<ReceiptSignature> = {}, payload: Record<string, unknown> = {}): ReceiptSignature => ({
  format: 'eip712',
  signature: 'valid',
  detail: null,
  signer: '0xabc',
  payload: { version: 1, network: 'eip155:8453', resourceUrl: URL_, payer: '0x1', issuedAt: sec(RECEIVED) - 60, ...payload },
  ...over,
});
const facts = (over: Partial<ReportFacts> = {}): ReportFacts => ({
  service: { urls: [URL_], payToHashes: ['h_payee'] },
  reportedAt: null,
  receivedAt: RECEIVED,
  reused: false,
  ...over,
});

describe('receiptVerdict (outcome-receipt/1)', () => {
  const cases: Array<[string, ReceiptSignature, string | null, ReportFacts, string | null]> = [
    ['every check passes', sig(), 'h_payee', facts(), null],
    ['payload version 2', sig({}, { version: 2 }), 'h_payee', facts(), 'malformed'],
    ['no service', sig(), 'h_payee', facts({ service: null }), 'no_service'],
    ['signature invalid', sig({ signature: 'invalid', detail: 'jws_signature_invalid', signer: null }), null, facts(), 'signature_invalid'],
    [
      'did:web key',
      sig({ signature: 'not_checked', detail: 'did_web_not_resolved', signer: null }),
      null,
      facts(),
      'signature_not_checked',
    ],
    ['another resource', sig({}, { resourceUrl: 'https://api.example.com/other' }), 'h_payee', facts(), 'resource_mismatch'],
    ['issued 25 hours before', sig({}, { issuedAt: sec(RECEIVED) - 25 * 3600 }), 'h_payee', facts(), 'issued_outside_window'],
    ['issued 6 minutes after receipt', sig({}, { issuedAt: sec(RECEIVED) + 360 }), 'h_payee', facts(), 'issued_outside_window'],
    ['no payee observed', sig(), 'h_payee', facts({ service: { urls: [URL_], payToHashes: [] } }), 'no_observed_payee'],
    ['signer is not the payee', sig(), 'h_other', facts(), 'signer_not_payee'],
    ['same signature reported before', sig(), 'h_payee', facts({ reused: true }), 'receipt_reused'],
    [
      'first reason wins: resource and window both fail',
      sig({}, { resourceUrl: 'https://x.test/', issuedAt: 1 }),
      'h_payee',
      facts(),
      'resource_mismatch',
    ],
  ];
  it.each(cases)('%s', (_name, s, signerHash, f, reason) => {
    const v = receiptVerdict(s, signerHash, f);
    expect(v.reason).toBe(reason);
    expect(v.state).toBe(reason === null ? 'verified' : 'not_verified');
    expect(v.rule).toBe('outcome-receipt/1');
  });

  it('window: 24 hours before reported_at (else received_at) to 5 minutes after received_at, ends included', () => {
    const reported = new Date('2026-11-25T10:00:00Z');
    expect(receiptWindow(reported, RECEIVED)).toEqual({ lo: new Date('2026-11-24T10:00:00Z'), hi: new Date('2026-11-25T12:05:00Z') });
    expect(receiptWindow(null, RECEIVED).lo).toEqual(new Date('2026-11-24T12:00:00Z'));
    const lo = sec(new Date('2026-11-24T10:00:00Z'));
    expect(receiptVerdict(sig({}, { issuedAt: lo }), 'h_payee', facts({ reportedAt: reported })).state).toBe('verified');
    expect(receiptVerdict(sig({}, { issuedAt: lo - 1 }), 'h_payee', facts({ reportedAt: reported })).reason).toBe('issued_outside_window');
    expect(receiptVerdict(sig({}, { issuedAt: sec(RECEIVED) + 300 }), 'h_payee', facts()).state).toBe('verified');
  });

  it('resource comparison: case of scheme and host, default port, fragment and one trailing slash ignored', () => {
    expect(comparableUrl('HTTPS://API.Example.com:443/premium-data/#x')).toBe(comparableUrl(URL_));
    expect(comparableUrl('https://api.example.com/premium-data?a=1')).not.toBe(comparableUrl(URL_));
    expect(comparableUrl('http://api.example.com/premium-data')).not.toBe(comparableUrl(URL_));
    expect(comparableUrl('ftp://api.example.com/')).toBeNull();
    // An operation's URL counts as the service's.
    const v = receiptVerdict(
      sig({}, { resourceUrl: 'https://api.example.com/op2' }),
      'h_payee',
      facts({ service: { urls: [URL_, 'https://api.example.com/op2'], payToHashes: ['h_payee'] } }),
    );
    expect(v.state).toBe('verified');
  });
});
