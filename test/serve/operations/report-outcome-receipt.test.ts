import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../../site/contract/error.ts';
import { RECEIPT_LIMITS } from '../../../site/contract/outcome-receipt.ts';
import { OutcomeReceipt } from '../../../site/contract/writes.ts';
import { harness, type Harness } from '../harness.ts';
import { exampleReceiptPayload } from '../../helpers/receipts.ts';

/**
 * POST /api/v1/outcomes with the seller's x402 receipt: the shape and size are checked (400
 * otherwise), the object is stored exactly as sent, and nothing is verified by the server.
 */
let h: Harness;
afterEach(async () => {
  await h?.close();
});

const outcomeLines = () =>
  readdirSync(h.inboxDir)
    .filter((f) => f.startsWith('outcomes-'))
    .flatMap((f) =>
      readFileSync(join(h.inboxDir, f), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l)),
    );

const EIP712 = {
  format: 'eip712',
  payload: exampleReceiptPayload(),
  // A placeholder (the extension's own example): the server never verifies, the pipeline will say invalid.
  signature: '0x1234567890abcdef',
};

describe('POST /api/v1/outcomes with a receipt', () => {
  it('stores the receipt exactly as sent and says it will be verified when loaded', async () => {
    h = await harness();
    const k = (await h.post('/api/v1/keys', {})).body as { key: string };
    const r = await h.post('/api/v1/outcomes', { outcome: 'success', idempotency_key: 'r1', receipt: EIP712 }, { 'X-API-Key': k.key });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(OutcomeReceipt.parse(r.body).message).toContain('verified when the report is loaded');
    const [rec] = outcomeLines();
    expect(rec.receipt).toEqual(EIP712);
    const jws = { format: 'jws', signature: 'eyJhbGciOiJFUzI1NksifQ.eyJ2ZXJzaW9uIjoxfQ.sig' };
    const r2 = await h.post('/api/v1/outcomes', { outcome: 'failure', idempotency_key: 'r2', receipt: jws }, { 'X-API-Key': k.key });
    expect(r2.status).toBe(201);
    expect(outcomeLines().find((l) => l.idempotency_key === 'r2')?.receipt).toEqual(jws);
    // Without a receipt the record says null.
    await h.post('/api/v1/outcomes', { outcome: 'success', idempotency_key: 'r3' }, { 'X-API-Key': k.key });
    expect(outcomeLines().find((l) => l.idempotency_key === 'r3')?.receipt).toBeNull();
  });

  const bad: Array<[string, unknown, string]> = [
    ['an unknown format', { ...EIP712, format: 'cose' }, 'receipt.format'],
    ['eip712 without payload', { format: 'eip712', signature: '0x12' }, 'payload is required'],
    ['jws with a payload', { format: 'jws', payload: EIP712.payload, signature: 'a.b.c' }, 'payload is required'],
    ['an unknown member', { ...EIP712, extra: 1 }, 'receipt'],
    ['an unknown payload member', { ...EIP712, payload: { ...EIP712.payload, price: '1' } }, 'receipt.payload'],
    ['issuedAt as text', { ...EIP712, payload: { ...EIP712.payload, issuedAt: '1703123456' } }, 'receipt.payload.issuedAt'],
    [
      'an oversized signature',
      { ...EIP712, signature: `0x${'a'.repeat(RECEIPT_LIMITS.signature)}` },
      'receipt.signature: at most 4096 characters',
    ],
    ['not an object', 'eyJ...', 'receipt'],
  ];
  it.each(bad)('400 for %s, nothing stored', async (_name, receipt, words) => {
    h = await harness();
    const k = (await h.post('/api/v1/keys', {})).body as { key: string };
    const r = await h.post('/api/v1/outcomes', { outcome: 'success', idempotency_key: 'bad', receipt }, { 'X-API-Key': k.key });
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    const body = ErrorBody.parse(r.body);
    expect(body.error).toBe('invalid_input');
    expect(body.message).toContain(words);
    expect(outcomeLines()).toEqual([]);
  });
});
