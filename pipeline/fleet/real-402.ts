import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { z } from 'zod';
import { PROJECT_ROOT } from '../core/paths.ts';
import type { Expected, HttpMethod } from './types.ts';

/**
 * Real 402 responses as fleet behaviours (docs/notes/fleet.md, "Real 402 responses").
 *
 * The responses are third-party text quoted from public issue threads. They are not ours to commit,
 * so the fleet never contains them: a caller loads them at run time from the realdata folder
 * (`loadReal402Responses`) and passes them to `startFleet({ real402 })`. Each one becomes an
 * endpoint with behaviour `real-402:<id>` on its own host, answering every request with exactly the
 * quoted status, headers and body bytes. Without the option the fleet (and the demo) has none.
 *
 * The verdict Atlas must store for each known id is ours (the result of x402-mainnet/2 on that
 * response) and lives here, in `REAL_402_EXPECTED`, like the verdicts of behaviours.ts. A file with
 * an id missing from that table is refused when the fleet starts: a new response needs a decision.
 */

export const REAL_402_PREFIX = 'real-402:';
export type Real402Behaviour = `real-402:${string}`;
export const isReal402Behaviour = (b: string): b is Real402Behaviour => b.startsWith(REAL_402_PREFIX);
export const real402Id = (b: Real402Behaviour): string => b.slice(REAL_402_PREFIX.length);

/** One real response as the fleet serves it. */
export interface Real402Response {
  /** The file's id; also the endpoint name (`real-402-<id>`) and host label. */
  id: string;
  /** Method and path of the quoted request (GET when the source does not say). */
  method: HttpMethod;
  path: string;
  status: number;
  /** Lower-cased header names; only header lines quoted in full. */
  headers: Record<string, string>;
  /** Body bytes as quoted ('' when the source quotes none). */
  body: string;
  /** What the source quoted but the fleet cannot serve verbatim (e.g. a header value cut short). */
  omitted: string[];
  /** What the fleet serves that is ours, not the source's (e.g. a header encoded from a quoted decoded request). */
  reconstructed: string[];
}

const v = (passed: boolean, reason: Expected['reason'], status: number | null): Expected => ({ passed, reason, status });

/**
 * x402-mainnet/2 on each known response, for a discovered-service probe (the reasons are explained
 * per id in docs/notes/fleet.md). Pure data: it never changes with time.
 */
export const REAL_402_EXPECTED: Readonly<Record<string, Expected>> = Object.freeze({
  // v1 body whose `accepts` entries lack scheme/maxAmountRequired/resource (the real v1 offer sits
  // in a non-standard `paymentRequirements` key): the payment-relevant fields fail the schema.
  'strale-iban-validate': v(false, 'invalid_payment_request', 402),
  // v1 body with the CAIP-2 Solana mainnet id: a known mainnet; the missing v1 description is cosmetic.
  'losbeto-analise-solana': v(true, 'ok', 402),
  // v1 body with an empty `asset`: no token to pay in, the schema rejects it.
  'crypto-sentiment-btc': v(false, 'invalid_payment_request', 402),
  // v2 header offering Stellar USDC on `stellar:pubnet`, a known mainnet.
  'mpprouter-firecrawl-scrape-stellar': v(true, 'ok', 402),

  // --- real-402-examples-2026.json (x402-mainnet/2; the classification of each: docs/notes/fleet.md) ---
  // Valid v2 header on Arc eip155:5042, a mainnet in site/contract/networks.ts (Circle's documents).
  'arcgate-box-create-arc': v(true, 'ok', 402),
  // Valid v2 request on BNB Smart Chain eip155:56, a mainnet (BNB Chain's documents).
  'bankofai-dexscreener-bsc-usdt-permit2': v(true, 'ok', 402),
  // x402 inside an MCP tools/call result, answered with HTTP 200: the HTTP rule sees no 402.
  'arcgate-mcp-tradesearch-x402-over-mcp': v(false, 'not_402', 200),
  // Apify's upto + exact terms on Base, quoted from an MCP tool result, served as the HTTP 402 they
  // would be (v2 header, `resource.url` filled in): a known mainnet offer.
  'apify-upto-and-exact-x402-over-mcp': v(true, 'ok', 402),
  // The offer only in the PAYMENT-REQUIRED header, body `{}`: the header decides.
  'x402uselessfacts-empty-body': v(true, 'ok', 402),
  // MPP only (WWW-Authenticate: Payment, method tempo): another protocol, not a broken x402 endpoint.
  'locus-rentcast-mpp-tempo-charge': v(false, 'not_x402', 402),
  // L402 only (Lightning macaroon + invoice).
  'myceliasignal-l402': v(false, 'not_x402', 402),
  // x402 sign-in-with-X: `accepts: []`, authentication only.
  'agonx402-siwx-auth-only': v(false, 'no_payment_offer', 402),
});

export function real402Expected(id: string): Expected {
  const e = REAL_402_EXPECTED[id];
  if (!e)
    throw new Error(
      `fleet: no expected verdict for the real 402 response "${id}"; decide it and add it to REAL_402_EXPECTED (pipeline/fleet/real-402.ts)`,
    );
  return e;
}

/** Paths of the examples files inside the realdata folder (both are loaded; ids are unique across them). */
export const REAL_402_FILE = join('x402', 'real-402-examples.json');
export const REAL_402_FILE_2026 = join('x402', 'real-402-examples-2026.json');
export const REAL_402_FILES = [REAL_402_FILE, REAL_402_FILE_2026] as const;

/**
 * The realdata folder: `ATLAS_REALDATA` when set, else `../shared/realdata` next to the repository
 * (the data is read in place, never copied into the repository).
 */
export function realdataDir(env: NodeJS.ProcessEnv = process.env): string {
  const o = env.ATLAS_REALDATA?.trim();
  if (o) return isAbsolute(o) ? o : resolve(PROJECT_ROOT, o);
  return resolve(PROJECT_ROOT, '..', 'shared', 'realdata');
}

const ExampleSchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,49}$/, 'id must be a short lower-case DNS label'),
  request: z.string(),
  // null: not an HTTP exchange (a request quoted from an MCP tool result)
  status: z.number().int().min(100).max(599).nullable(),
  headers_as_quoted: z.array(z.string()).optional(),
  headers_verbatim: z.record(z.string(), z.string()).optional(),
  body_verbatim: z.string().optional(),
  body_json: z.unknown().optional(),
  payment_required_header_verbatim: z.string().optional(),
  payment_required_decoded_verbatim: z.string().optional(),
  payment_required_decoded_as_quoted: z.string().optional(),
  www_authenticate_verbatim: z.string().optional(),
  header_value_complete: z.boolean().nullable().optional(),
});
const FileSchema = z.object({ examples: z.array(ExampleSchema).min(1) });

const HEADER_LINE = /^([A-Za-z0-9-]+):\s*(.*)$/;

function parseRequest(request: string): { method: HttpMethod; path: string; url: string } {
  const r = request.trim();
  // The first URL of the text; a request quoted from an MCP tool call may name a bare host instead.
  const url = /https?:\/\/\S+/.exec(r)?.[0] ?? /\b((?:[a-z0-9-]+\.)+[a-z]{2,})\b/i.exec(r)?.[1]?.replace(/^/, 'https://');
  if (!url) throw new Error(`real 402 example: cannot read the request line ${JSON.stringify(request)}`);
  const u = new URL(url);
  const method = (/^(GET|POST)\s/.exec(r)?.[1] as HttpMethod | undefined) ?? (/\bMCP\b/.test(r) ? 'POST' : 'GET');
  return { method, path: `${u.pathname}${u.search}`, url: `${u.origin}${u.pathname}${u.search}` };
}

/** A decoded v2 request as a PAYMENT-REQUIRED value (standard base64 of its JSON), `resource.url` filled in when the source leaves it out. */
function encodeRequest(decoded: string, url: string, notes: string[]): string {
  const raw = JSON.parse(decoded) as Record<string, unknown>;
  if (raw.x402Version === 2 && raw.resource === undefined && Array.isArray(raw.accepts) && raw.accepts.length) {
    raw.resource = { url };
    notes.push('resource.url set to the request URL (the source quotes no resource)');
  }
  return Buffer.from(JSON.stringify(raw)).toString('base64');
}

/**
 * The file's examples as servable responses. Header lines are served only when quoted in full: the
 * status line is HTTP framing, reporter prose in parentheses is not a header, and a
 * `Payment-Required` value the file marks incomplete (`header_value_complete: false`) is omitted
 * rather than served truncated. A body without a quoted Content-Type is served as application/json
 * (framing only: the probe reads the body by its content, not its type).
 * The 2026 file's shapes: `headers_verbatim` (an object), `www_authenticate_verbatim`, `body_json`
 * (served as its JSON text), and a request the source quotes only decoded
 * (`payment_required_decoded_*`), served re-encoded as the header (listed in `reconstructed`). An
 * example with status null (an x402 request quoted from an MCP tool result) is served as the HTTP 402
 * it would be: its body re-encoded as the header, and a `{}` body.
 */
export function parseReal402Examples(json: unknown): Real402Response[] {
  const file = FileSchema.parse(json);
  const seen = new Set<string>();
  return file.examples.map((e) => {
    if (seen.has(e.id)) throw new Error(`real 402 example: duplicate id ${e.id}`);
    seen.add(e.id);
    const { url, ...request } = parseRequest(e.request);
    const headers: Record<string, string> = {};
    const omitted: string[] = [];
    const reconstructed: string[] = [];
    for (const [k, val] of Object.entries(e.headers_verbatim ?? {})) headers[k.toLowerCase()] = val;
    for (const line of e.headers_as_quoted ?? []) {
      if (/^HTTP\/\d/.test(line)) continue;
      const m = HEADER_LINE.exec(line);
      if (!m) {
        omitted.push(`not a header line: ${line}`);
        continue;
      }
      const name = m[1]!.toLowerCase();
      if (name === 'payment-required' && e.header_value_complete === false) {
        omitted.push(`${m[1]} (value quoted incomplete)`);
        continue;
      }
      headers[name] = m[2]!;
    }
    if (e.www_authenticate_verbatim !== undefined) headers['www-authenticate'] = e.www_authenticate_verbatim;
    if (e.payment_required_header_verbatim !== undefined) {
      if (e.header_value_complete === false) omitted.push('PAYMENT-REQUIRED (value quoted incomplete)');
      else headers['payment-required'] = e.payment_required_header_verbatim;
    }
    const decoded = e.payment_required_decoded_verbatim ?? e.payment_required_decoded_as_quoted;
    if (decoded !== undefined && headers['payment-required'] === undefined) {
      headers['payment-required'] = encodeRequest(decoded, url, reconstructed);
      reconstructed.unshift('PAYMENT-REQUIRED encoded from the decoded request the source quotes');
    }
    let body = e.body_verbatim ?? (e.body_json === undefined ? '' : JSON.stringify(e.body_json));
    let status = e.status;
    if (status === null) {
      if (!body) throw new Error(`real 402 example ${e.id}: no status and no body to serve`);
      headers['payment-required'] = encodeRequest(body, url, reconstructed);
      reconstructed.unshift('served as an HTTP 402: the quoted request (from an MCP tool result) as PAYMENT-REQUIRED, body {}');
      body = '{}';
      status = 402;
    }
    if (body && !headers['content-type']) headers['content-type'] = 'application/json';
    return { id: e.id, ...request, status, headers, body, omitted, reconstructed };
  });
}

/** Read and parse both examples files; a clear error when the realdata folder is not there. */
export function loadReal402Responses(dir: string = realdataDir()): Real402Response[] {
  const out: Real402Response[] = [];
  for (const f of REAL_402_FILES) {
    const file = join(dir, f);
    if (!existsSync(file))
      throw new Error(
        `real 402 responses not found at ${file}: the realdata folder is read at run time, not committed; ` +
          'put it at ../shared/realdata next to the repository or point ATLAS_REALDATA at it',
      );
    out.push(...parseReal402Examples(JSON.parse(readFileSync(file, 'utf8'))));
  }
  const ids = out.map((r) => r.id);
  const dup = ids.find((id, i) => ids.indexOf(id) !== i);
  if (dup) throw new Error(`real 402 example: duplicate id ${dup} across ${REAL_402_FILES.join(' and ')}`);
  return out;
}
