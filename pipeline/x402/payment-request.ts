import { parsePaymentRequired } from '@x402/core/schemas';
import { toCaip2 } from '../../site/contract/networks.ts';

/**
 * Reading an x402 payment request from a 402 response. Pure (headers and body in, verdict out).
 *
 * What "valid" means here (docs/notes/probe.md, "What counts as a valid x402 payment request"): a
 * request the reference client (@x402/core 2.27) would act on, whose payment-relevant fields pass
 * the library's zod schema, and whose offers pass our own checks. In order:
 * 1. Header first: `PAYMENT-REQUIRED` decides when present (like the reference client); the body is
 *    read only when there is no header and `body.x402Version === 1`.
 * 2. Header encoding: exactly what `decodePaymentRequiredHeader` accepts (standard base64 alphabet,
 *    no inner whitespace). URL-safe base64 or embedded whitespace breaks the reference client, so it
 *    is invalid (the detail names which); leading/trailing whitespace is HTTP framing and is trimmed.
 * 3. Mislabelled versions are invalid: a v2 object in the body without the header, or a version
 *    label that does not match the shape (e.g. `x402Version: 2` with v1 `maxAmountRequired`).
 * 4. Cosmetic fields never decide: when `parsePaymentRequired` fails only on metadata (v2 `resource.*`
 *    other than `url` — e.g. more than 5 tags, a serviceName over 32 characters —, `error`,
 *    `extensions`; v1 `accepts[].description|mimeType|outputSchema|resource`), it is re-validated with
 *    those fields neutralised and the note lists what was ignored.
 * 5. Our checks per offer (the library accepts `"$0.01"` and any `ns:ref`): the amount must be atomic
 *    units (digits only, at most 78), the network is normalised to CAIP-2 where known. Offers failing
 *    them are dropped; with no offer left the request is invalid.
 * The raw decoded JSON is what we normalise from (zod strips unknown keys); `raw` is returned.
 */
export interface RawOffer {
  scheme: string;
  /** As given by the server. */
  network: string;
  /** CAIP-2 where known (v1 names mapped), otherwise the given id. */
  caip2: string;
  asset: string;
  amount: string;
  payTo: string;
  maxTimeoutSeconds: number;
}

export type PaymentRequestRead =
  | { kind: 'absent'; detail: string }
  | { kind: 'invalid'; source: 'header' | 'body'; detail: string }
  | { kind: 'valid'; source: 'header' | 'body'; version: 1 | 2; raw: Record<string, unknown>; offers: RawOffer[]; notes: string[] };

const STD_B64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function decodeHeader(value: string): { ok: true; json: unknown } | { ok: false; detail: string } {
  const v = value.trim();
  if (!v) return { ok: false, detail: 'empty PAYMENT-REQUIRED header' };
  if (!STD_B64.test(v)) {
    if (/\s/.test(v)) return { ok: false, detail: 'PAYMENT-REQUIRED header contains whitespace inside the base64' };
    if (/^[A-Za-z0-9_-]*={0,2}$/.test(v))
      return { ok: false, detail: 'PAYMENT-REQUIRED header is URL-safe base64 (the reference client rejects it)' };
    return { ok: false, detail: 'PAYMENT-REQUIRED header is not base64' };
  }
  try {
    // Same acceptance and result as @x402/core's decodePaymentRequiredHeader (standard alphabet checked
    // above, then base64 → UTF-8 → JSON.parse; a unit test holds them equal), decoded with Buffer
    // because the library's atob loop costs several times more per header on the probe's hot path.
    return { ok: true, json: JSON.parse(Buffer.from(v, 'base64').toString('utf8')) };
  } catch {
    return { ok: false, detail: 'PAYMENT-REQUIRED header is not base64-encoded JSON' };
  }
}

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

function parseBody(body: Buffer | null): unknown {
  if (!body || body.length === 0) return undefined;
  const text = body.toString('utf8').trim();
  if (!text.startsWith('{')) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

type Issue = { path: (string | number)[] };

function isCosmetic(version: unknown, path: (string | number)[]): boolean {
  const [a, b, c] = path;
  if (a === 'error') return true;
  if (version === 2) return (a === 'resource' && b !== undefined && b !== 'url') || a === 'extensions';
  if (version === 1)
    return (
      a === 'accepts' && typeof b === 'number' && (c === 'description' || c === 'mimeType' || c === 'outputSchema' || c === 'resource')
    );
  return false;
}

/** A copy with every cosmetic field neutralised (removed, or set to a harmless value where required). */
function withoutCosmetics(raw: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...raw };
  delete copy.error;
  if (raw.x402Version === 2) {
    delete copy.extensions;
    if (isObj(raw.resource)) copy.resource = { url: raw.resource.url };
  } else if (Array.isArray(raw.accepts)) {
    copy.accepts = raw.accepts.map((a) => {
      if (!isObj(a)) return a;
      const { mimeType: _m, outputSchema: _o, ...rest } = a;
      return {
        ...rest,
        description: typeof a.description === 'string' ? a.description : '',
        resource: typeof a.resource === 'string' && a.resource ? a.resource : '-',
      };
    });
  }
  return copy;
}

function validate(raw: Record<string, unknown>): { ok: true; notes: string[] } | { ok: false; detail: string } {
  const first = parsePaymentRequired(raw);
  if (first.success) return { ok: true, notes: [] };
  const issues = first.error.issues as Issue[];
  if (raw.x402Version !== 1 && raw.x402Version !== 2)
    return { ok: false, detail: `unsupported x402Version ${JSON.stringify(raw.x402Version)?.slice(0, 20)}` };
  if (issues.every((i) => isCosmetic(raw.x402Version, i.path))) {
    const second = parsePaymentRequired(withoutCosmetics(raw));
    if (second.success) {
      const fields = [...new Set(issues.map((i) => i.path.filter((p) => typeof p === 'string').join('.')))];
      return { ok: true, notes: [`ignored cosmetic fields: ${fields.join(', ')}`] };
    }
  }
  const shown = issues
    .slice(0, 3)
    .map((i) => i.path.join('.') || '(root)')
    .join(', ');
  const mislabel =
    raw.x402Version === 2 &&
    Array.isArray(raw.accepts) &&
    raw.accepts.some((a) => isObj(a) && 'maxAmountRequired' in a && !('amount' in a));
  return {
    ok: false,
    detail: `${mislabel ? 'mislabelled version: x402Version 2 with v1-shaped offers; ' : ''}schema check failed at ${shown}`,
  };
}

const AMOUNT_RE = /^\d{1,78}$/;

function offersOf(raw: Record<string, unknown>): { offers: RawOffer[]; dropped: string[] } {
  const v = raw.x402Version;
  const offers: RawOffer[] = [];
  const dropped: string[] = [];
  const accepts = Array.isArray(raw.accepts) ? raw.accepts : [];
  accepts.forEach((a, i) => {
    if (!isObj(a)) return;
    const amount = String(v === 1 ? a.maxAmountRequired : a.amount);
    const network = String(a.network);
    if (!AMOUNT_RE.test(amount)) {
      dropped.push(`offer ${i}: amount ${JSON.stringify(amount.slice(0, 24))} is not atomic units`);
      return;
    }
    offers.push({
      scheme: String(a.scheme),
      network,
      caip2: toCaip2(network),
      asset: String(a.asset),
      amount: amount.replace(/^0+(?=\d)/, ''),
      payTo: String(a.payTo),
      maxTimeoutSeconds: Number(a.maxTimeoutSeconds),
    });
  });
  return { offers, dropped };
}

/** Read the payment request of a 402 response (headers lower-cased, as undici gives them). */
export function readPaymentRequest(headers: Readonly<Record<string, string>>, body: Buffer | null): PaymentRequestRead {
  const header = headers['payment-required'];
  let raw: unknown;
  let source: 'header' | 'body';
  if (header !== undefined && header.trim() !== '') {
    const d = decodeHeader(header);
    if (!d.ok) return { kind: 'invalid', source: 'header', detail: d.detail };
    raw = d.json;
    source = 'header';
  } else {
    const b = parseBody(body);
    if (!isObj(b)) return { kind: 'absent', detail: 'no PAYMENT-REQUIRED header and no x402 JSON body' };
    if (b.x402Version !== 1) {
      return 'x402Version' in b
        ? {
            kind: 'invalid',
            source: 'body',
            detail: `body declares x402Version ${JSON.stringify(b.x402Version)?.slice(0, 20)} without a PAYMENT-REQUIRED header (only v1 requests travel in the body)`,
          }
        : { kind: 'absent', detail: 'no PAYMENT-REQUIRED header and no x402 JSON body' };
    }
    raw = b;
    source = 'body';
  }
  if (!isObj(raw)) return { kind: 'invalid', source, detail: 'payment request is not a JSON object' };
  const checked = validate(raw);
  if (!checked.ok) return { kind: 'invalid', source, detail: checked.detail };
  const { offers, dropped } = offersOf(raw);
  if (!offers.length) return { kind: 'invalid', source, detail: dropped.join('; ') || 'no offers' };
  return { kind: 'valid', source, version: raw.x402Version as 1 | 2, raw, offers, notes: [...checked.notes, ...dropped] };
}
