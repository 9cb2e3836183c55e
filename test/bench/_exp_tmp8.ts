import { encodePaymentRequiredHeader } from '@x402/core/http';
import { judge } from '../../pipeline/probe/probe-one.ts';
import { readPaymentRequest } from '../../pipeline/x402/payment-request.ts';
import { v2Request } from '../probe/behaviour-server.ts';
const res = { ok: true as const, status: 402, headers: { 'payment-required': encodePaymentRequiredHeader(v2Request() as never) }, body: Buffer.from('{}'), bytes: 2, truncated: false, ttfbMs: 1, totalMs: 2 };
const op = { serviceId: 's', operation: 'p', kind: 'call' as const, url: 'https://a/x', method: 'GET', expectedStatuses: [], passRule: 'x402-mainnet/1' as const, intervalHours: 24, protocol: 'x402', slot: new Date(0) };
for (let round = 0; round < 3; round++) {
  let t = performance.now();
  for (let i = 0; i < 20000; i++) judge(op, res, 'secret');
  console.log('judge', ((performance.now() - t) / 20000 * 1000).toFixed(1), 'µs');
  t = performance.now();
  for (let i = 0; i < 20000; i++) readPaymentRequest(res.headers, res.body);
  console.log('read', ((performance.now() - t) / 20000 * 1000).toFixed(1), 'µs');
}
