import { CheckReason } from '../../../site/contract/common.ts';
import { nestingDeeperThan } from '../../core/json-depth.ts';
import type { EdgeFailure } from '../../probe/reasons.ts';
import { safeFetch, type EdgeOptions } from '../../probe/safe-fetch.ts';
import { decodeDocument } from '../source.ts';
import { wellKnownUrl } from './origins.ts';

/**
 * Fetching one seller document. Unlike a registry source (operator configuration, source.ts), an
 * origin in the list is a third party's host, so the document goes through the probe's own edge
 * (safeFetch): the private-address guard at connect time (unless allowPrivate; the resolve map
 * applies), one deadline for the whole answer, a body cap, no redirects, no credentials. One attempt,
 * no retry: an origin that fails is counted and tried again at the next run.
 *
 * Outcomes that are no document: the edge's reasons (`timeout`, `dns`, `refused`, `tls`, `reset`,
 * `blocked_address`, `network_error`), `too_large` (body over the cap or JSON nested too deep),
 * `redirect` (a 3xx, never followed), `http_status` (any other status than 200), `not_json`.
 */
export type WellKnownFetchFailure = EdgeFailure | typeof REDIRECT | 'http_status' | 'not_json';

const { redirect: REDIRECT, too_large: TOO_LARGE } = CheckReason.enum;

export type WellKnownFetched = { ok: true; doc: unknown; bytes: number } | { ok: false; reason: WellKnownFetchFailure; detail: string };

/** Seller documents are a few kilobytes; the real ones are under 1.2 kB. */
export const WELL_KNOWN_MAX_BYTES = 256 * 1024;
const MAX_DEPTH = 32;

export async function fetchWellKnown(origin: string, edge: EdgeOptions, userAgent: string): Promise<WellKnownFetched> {
  const url = wellKnownUrl(origin);
  const r = await safeFetch({ url, method: 'GET', headers: { accept: 'application/json', 'user-agent': userAgent } }, edge);
  if (!r.ok) return { ok: false, reason: r.reason, detail: r.detail };
  if (r.status >= 300 && r.status < 400)
    return { ok: false, reason: REDIRECT, detail: `HTTP ${r.status} to ${(r.headers.location ?? '').slice(0, 200)}` };
  if (r.status !== 200) return { ok: false, reason: 'http_status', detail: `HTTP ${r.status}` };
  if (r.truncated) return { ok: false, reason: TOO_LARGE, detail: `body over ${edge.maxBodyBytes} bytes` };
  let text: string;
  try {
    text = decodeDocument(r.body ?? Buffer.alloc(0), url, { maxBytes: edge.maxBodyBytes });
  } catch (e) {
    const detail = (e as Error).message.slice(0, 200);
    return { ok: false, reason: detail.includes(TOO_LARGE) ? TOO_LARGE : 'not_json', detail };
  }
  if (nestingDeeperThan(text, MAX_DEPTH)) return { ok: false, reason: TOO_LARGE, detail: `JSON nested deeper than ${MAX_DEPTH} levels` };
  try {
    return { ok: true, doc: JSON.parse(text), bytes: r.bytes };
  } catch (e) {
    return { ok: false, reason: 'not_json', detail: (e as Error).message.slice(0, 200) };
  }
}
