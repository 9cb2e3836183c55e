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
 * The verdict Atlas must store for each known id is ours (the result of x402-mainnet/1 on that
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
}

const v = (passed: boolean, reason: Expected['reason'], status: number | null): Expected => ({ passed, reason, status });

/**
 * x402-mainnet/1 on each known response, for a discovered-service probe (the reasons are explained
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
});

export function real402Expected(id: string): Expected {
  const e = REAL_402_EXPECTED[id];
  if (!e)
    throw new Error(
      `fleet: no expected verdict for the real 402 response "${id}"; decide it and add it to REAL_402_EXPECTED (pipeline/fleet/real-402.ts)`,
    );
  return e;
}

/** Path of the examples file inside the realdata folder. */
export const REAL_402_FILE = join('x402', 'real-402-examples.json');

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
  status: z.number().int().min(100).max(599),
  headers_as_quoted: z.array(z.string()).optional(),
  body_verbatim: z.string().optional(),
  payment_required_header_verbatim: z.string().optional(),
  header_value_complete: z.boolean().nullable().optional(),
});
const FileSchema = z.object({ examples: z.array(ExampleSchema).min(1) });

const HEADER_LINE = /^([A-Za-z0-9-]+):\s*(.*)$/;

function parseRequest(request: string): { method: HttpMethod; path: string } {
  const m = /^(?:(GET|POST)\s+)?(https?:\/\/\S+)/.exec(request.trim());
  if (!m) throw new Error(`real 402 example: cannot read the request line ${JSON.stringify(request)}`);
  const u = new URL(m[2]!);
  return { method: (m[1] as HttpMethod | undefined) ?? 'GET', path: `${u.pathname}${u.search}` };
}

/**
 * The file's examples as servable responses. Header lines are served only when quoted in full: the
 * status line is HTTP framing, reporter prose in parentheses is not a header, and a
 * `Payment-Required` value the file marks incomplete (`header_value_complete: false`) is omitted
 * rather than served truncated. A body without a quoted Content-Type is served as application/json
 * (framing only: the probe reads the body by its content, not its type).
 */
export function parseReal402Examples(json: unknown): Real402Response[] {
  const file = FileSchema.parse(json);
  const seen = new Set<string>();
  return file.examples.map((e) => {
    if (seen.has(e.id)) throw new Error(`real 402 example: duplicate id ${e.id}`);
    seen.add(e.id);
    const headers: Record<string, string> = {};
    const omitted: string[] = [];
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
    if (e.payment_required_header_verbatim !== undefined) {
      if (e.header_value_complete === false) omitted.push('PAYMENT-REQUIRED (value quoted incomplete)');
      else headers['payment-required'] = e.payment_required_header_verbatim;
    }
    const body = e.body_verbatim ?? '';
    if (body && !headers['content-type']) headers['content-type'] = 'application/json';
    return { id: e.id, ...parseRequest(e.request), status: e.status, headers, body, omitted };
  });
}

/** Read and parse the examples file; a clear error when the realdata folder is not there. */
export function loadReal402Responses(dir: string = realdataDir()): Real402Response[] {
  const file = join(dir, REAL_402_FILE);
  if (!existsSync(file))
    throw new Error(
      `real 402 responses not found at ${file}: the realdata folder is read at run time, not committed; ` +
        'put it at ../shared/realdata next to the repository or point ATLAS_REALDATA at it',
    );
  return parseReal402Examples(JSON.parse(readFileSync(file, 'utf8')));
}
