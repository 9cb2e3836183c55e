import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { encodePaymentResponseHeader } from '@x402/core/http';
import { toCaip2 } from '../../site/contract/networks.ts';
import { encodeHeader, paymentRequiredV2 } from './payment.ts';
import { makeSpec, type EndpointSpec } from './plan.ts';
import { type SellerKeys, signEip712, signJws } from './seller-keys.ts';
import { signedOfferKeys, signingSellerOffers } from './signed-offers.ts';
import type { FleetState } from './state.ts';

/**
 * Sellers that answer a PAID call with an offer-receipt signed receipt (x402's offer-receipt
 * extension, `extensions["offer-receipt"].info.receipt` of the settlement response), one endpoint
 * per case, appended after the plan when the fleet is started with `signedReceipts: true` (off by
 * default: the default fleet is unchanged). Each is an ordinary v2 Base USDC seller whose payTo is
 * its own secp256k1 key's address, so an unpaid probe sees a valid 402 (verdict `ok`).
 *
 * The paid call: a request carrying a payment header (`PAYMENT-SIGNATURE`, x402 v2, or `X-PAYMENT`,
 * v1) is answered 200 with a JSON body and a `PAYMENT-RESPONSE` header (the settlement response,
 * base64 JSON, @x402/core's encoder). The simulator settles nothing and accepts any payment header:
 * it stands for a seller whose facilitator said yes. Receipts are signed with viem / jose directly
 * (seller-keys.ts); keys are deterministic in (fleet seed, endpoint name).
 */
export const SIGNED_RECEIPT_CASES = [
  'valid', // EIP-712 by the payee key, naming this resource, issued now
  'valid-jws', // JWS ES256K by the payee key, kid did:key
  'bad-signature', // JWS by the payee key with its signature bytes altered
  'wrong-signer', // EIP-712 by another key (a valid signature, not the payee key)
  'resource-mismatch', // EIP-712 by the payee key naming another resource of the host
  'stale', // EIP-712 by the payee key issued 3 days before the call
  'no-receipt', // a settlement response without the extension
] as const;
export type SignedReceiptCase = (typeof SIGNED_RECEIPT_CASES)[number];

export const SIGNED_RECEIPT_PREFIX = 'signed-receipt:';
export type SignedReceiptBehaviour = `signed-receipt:${SignedReceiptCase}`;
export const isSignedReceiptBehaviour = (b: string): b is SignedReceiptBehaviour => b.startsWith(SIGNED_RECEIPT_PREFIX);
const caseOf = (b: SignedReceiptBehaviour): SignedReceiptCase => b.slice(SIGNED_RECEIPT_PREFIX.length) as SignedReceiptCase;

/** The payer the simulator names in its receipts (it reads no wallet from the payment header). */
export const FLEET_PAYER = '0x857b06519E91e3A54538791bDbb0E22373e36b66';

/** One x402 endpoint per case: host and name `receipt-<case>`, path /api. */
export function signedReceiptSpecs(first: number): EndpointSpec[] {
  return SIGNED_RECEIPT_CASES.map((c, i) => makeSpec(first + i, `receipt-${c}`, `${SIGNED_RECEIPT_PREFIX}${c}`, `receipt-${c}`, '/api'));
}

async function receiptFor(c: SignedReceiptCase, payload: Record<string, unknown>, payee: SellerKeys, other: SellerKeys) {
  switch (c) {
    case 'valid':
      return { format: 'eip712', payload, signature: await signEip712('receipt', payload, payee.evm) };
    case 'resource-mismatch': {
      const p = { ...payload, resourceUrl: `${String(payload.resourceUrl)}/other` };
      return { format: 'eip712', payload: p, signature: await signEip712('receipt', p, payee.evm) };
    }
    case 'stale': {
      const p = { ...payload, issuedAt: Number(payload.issuedAt) - 3 * 86_400 };
      return { format: 'eip712', payload: p, signature: await signEip712('receipt', p, payee.evm) };
    }
    case 'wrong-signer':
      return { format: 'eip712', payload, signature: await signEip712('receipt', payload, other.evm) };
    case 'valid-jws':
      return { format: 'jws', signature: await signJws(payload, payee.didKeySecp256k1, { alg: 'ES256K', jwk: payee.evmJwk }) };
    case 'bad-signature': {
      const [h, p, s] = (await signJws(payload, payee.didKeySecp256k1, { alg: 'ES256K', jwk: payee.evmJwk })).split('.');
      const sig = Buffer.from(s!, 'base64url');
      sig[10] = (sig[10]! + 1) % 256;
      return { format: 'jws', signature: `${h}.${p}.${sig.toString('base64url')}` };
    }
    case 'no-receipt':
      return null;
  }
}

const paid = (req: IncomingMessage) => req.headers['payment-signature'] !== undefined || req.headers['x-payment'] !== undefined;

/** The unpaid 402 (payTo = the payee key's address) or, for a paid call, 200 with the settlement response. */
export async function sendSignedReceipt(
  state: FleetState,
  spec: EndpointSpec,
  req: IncomingMessage,
  res: ServerResponse,
  url: string,
  now: Date,
): Promise<void> {
  const payee = signedOfferKeys(state.signingSeed, spec.name);
  const offers = signingSellerOffers(state, spec, now);
  if (!paid(req)) {
    const body = '{}';
    res.writeHead(402, {
      'content-type': 'application/json; charset=utf-8',
      'payment-required': encodeHeader(paymentRequiredV2(spec, url, offers), state.headerEncoding),
      'content-length': String(Buffer.byteLength(body)),
    });
    res.end(body);
    return;
  }
  const network = toCaip2(offers[0]!.network);
  const transaction = `0x${createHash('sha256').update(`${spec.name}|${now.toISOString()}`).digest('hex')}`;
  const payload = {
    version: 1,
    network,
    resourceUrl: url,
    payer: FLEET_PAYER,
    issuedAt: Math.floor(now.getTime() / 1000),
    transaction: '',
  };
  const receipt = await receiptFor(
    caseOf(spec.behaviour as SignedReceiptBehaviour),
    payload,
    payee,
    signedOfferKeys(state.signingSeed, spec.name, 'other'),
  );
  const settlement = {
    success: true,
    transaction,
    network,
    payer: FLEET_PAYER,
    ...(receipt ? { extensions: { 'offer-receipt': { info: { receipt } } } } : {}),
  };
  const body = JSON.stringify({ ok: true, data: `the paid answer of ${spec.name}` });
  res.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'payment-response': encodePaymentResponseHeader(settlement as Parameters<typeof encodePaymentResponseHeader>[0]),
    'content-length': String(Buffer.byteLength(body)),
  });
  res.end(body);
}
