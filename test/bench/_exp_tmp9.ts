import { decodePaymentRequiredHeader, encodePaymentRequiredHeader } from '@x402/core/http';
import { parsePaymentRequired } from '@x402/core/schemas';
import { normalizeTerms } from '../../pipeline/x402/terms.ts';
import { keyedHash } from '../../pipeline/core/secret.ts';
import { v2Request } from '../probe/behaviour-server.ts';
const h = encodePaymentRequiredHeader(v2Request() as never);
const obj = JSON.parse(Buffer.from(h, 'base64').toString());
const bench = (name: string, f: () => unknown) => { const t = performance.now(); for (let i = 0; i < 20000; i++) f(); console.log(name, ((performance.now() - t) / 20000 * 1000).toFixed(1), 'µs'); };
for (let r = 0; r < 2; r++) {
  bench('decodeHeader(x402)', () => decodePaymentRequiredHeader(h));
  bench('Buffer decode+JSON', () => JSON.parse(Buffer.from(h, 'base64').toString('utf8')));
  bench('parsePaymentRequired', () => parsePaymentRequired(obj));
  bench('keyedHash', () => keyedHash('s', 'pay_to', '0xabc'));
  bench('normalizeTerms', () => normalizeTerms(2, [{ scheme: 'exact', network: 'eip155:8453', caip2: 'eip155:8453', asset: '0xabc', amount: '100', payTo: '0x1', maxTimeoutSeconds: 60 }], 's'));
}
