import { fork } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { INGEST_LIMITS, ingestX402 } from '../../pipeline/ingest/index.ts';
import { recordActivity } from '../../pipeline/ingest/activity.ts';
import { openStore } from '../../pipeline/store/index.ts';
import { makeContext, openTestStore } from '../helpers/context.ts';
import { seedServices } from '../pipeline/probe/seed.ts';
import { mcpEntry, x402Item } from '../pipeline/ingest/support.ts';

/**
 * The hostile-input table (docs/notes/hostile-input.md), shared by the test
 * (test/integration/hostile.test.ts: the recorded reason, the child finished, earlier rows intact)
 * and the bench (`npm run bench -- hostile`: the same plus peak RSS and time per case).
 *
 * Each case is a route of one real HTTP server on 127.0.0.1 (in the parent process), and the real
 * code path runs against it in a child process (hostile-child.ts), so the child's peak RSS is the
 * code's own: registry ingest (`ingestX402`/`ingestMcp` with the production fetcher and limits),
 * the probe (`runProbe`) and the docs pipeline (`runDocs`). The child reports facts read back from
 * its database; the parent checks that every row written before the child ran is still there, byte
 * for byte (rows of the service under test, marked `hostile`, excepted).
 */
export type Target = 'ingest-x402' | 'ingest-mcp' | 'probe' | 'docs';

export interface CaseOptions {
  /** Items of the large registry page (bench default 200,000; the test uses a small one). */
  size: number;
  /** The ingest body cap the child runs with (ChildLimits.maxBytes). */
  maxBytes: number;
}

export interface HostileCase {
  name: string;
  target: Target;
  what: string;
  serve: (req: IncomingMessage, res: ServerResponse, o: CaseOptions) => void;
  /** The recorded reason (`<run status>: <runs.error>` for ingest, `<check reason>: <detail>` otherwise) must match. */
  reason: RegExp;
  /** Facts the child reads back (see hostile-child.ts) that must hold. */
  facts?: Record<string, unknown>;
}

/**
 * Limits the child runs with: production's body cap by default (the bench), shorter time limits (no
 * case waits 30 s). The test passes a smaller cap so an endless body reaches it well within the
 * deadline even on a loaded machine; every size case is stated relative to the cap.
 */
export interface ChildLimits {
  timeoutMs: number;
  deadlineMs: number;
  maxBytes: number;
}
export const BENCH_LIMITS: ChildLimits = { timeoutMs: 2_000, deadlineMs: 15_000, maxBytes: INGEST_LIMITS.maxBytes };

const itemUrl = (i: number) => `http://127.0.0.1:9/h/${i}`;
/** MCP remotes must be https to be kept (a plain-http remote is skipped as `not_https`); never fetched at ingest. */
const remoteUrl = (i: number) => `https://127.0.0.1:9/h/${i}`;
const x402Page = (items: unknown[]) =>
  JSON.stringify({ x402Version: 2, items, pagination: { limit: items.length, offset: 0, total: items.length } });

/** Writes `chunk` until the client goes away, honouring backpressure. */
function endless(res: ServerResponse, chunk: string | Buffer): void {
  let open = true;
  res.on('close', () => {
    open = false;
  });
  const pump = () => {
    while (open && res.write(chunk));
    if (open) res.once('drain', pump);
  };
  pump();
}

/** One byte every `everyMs`, forever (a valid JSON start, so only the clock can end it). */
function drip(res: ServerResponse, everyMs: number): void {
  res.write('{"items":[');
  const t = setInterval(() => res.write(' '), everyMs);
  res.on('close', () => clearInterval(t));
}

/** A response of `status` whose body drips forever. */
const dripping =
  (status: number, type: string): HostileCase['serve'] =>
  (_q, res) => {
    res.writeHead(status, { 'content-type': type });
    drip(res, 20);
  };

/** A response of `status` whose body starts with `head` and repeats `chunk` forever. */
const streaming =
  (status: number, type: string, chunk: string, head = ''): HostileCase['serve'] =>
  (_q, res) => {
    res.writeHead(status, { 'content-type': type });
    if (head) res.write(head);
    endless(res, chunk);
  };

/** Headers never come: the request is held until the client gives up. */
const silent = (req: IncomingMessage, res: ServerResponse) => {
  req.resume();
  res.on('close', () => undefined);
};

const json = (res: ServerResponse, body: string | Buffer, status = 200, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body);
};

const bigPages = new Map<number, string>();
/** The large page, built once per size (startHostileServer builds it before listening). */
function bigPage(size: number): string {
  let p = bigPages.get(size);
  if (!p) {
    p = x402Page(Array.from({ length: size }, (_, i) => x402Item(itemUrl(i), { description: `service ${i} `.repeat(8) })));
    bigPages.set(size, p);
  }
  return p;
}

const bombs = new Map<number, Buffer>();
/** gzip members of 1 MiB of zeros, concatenated (valid gzip): ~1 KiB each, `mib` MiB inflated. */
function gzipBomb(mib: number): Buffer {
  let b = bombs.get(mib);
  if (!b) {
    const one = gzipSync(Buffer.alloc(1024 * 1024));
    b = Buffer.concat(Array.from({ length: mib }, () => one));
    bombs.set(mib, b);
  }
  return b;
}

const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
const INVALID_UTF8 = Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xe2, 0x82]);

function withBadBytes(text: string, marker: string, bytes: Buffer): Buffer {
  const [a, b] = text.split(marker) as [string, string];
  return Buffer.concat([Buffer.from(a), bytes, Buffer.from(b)]);
}

const hugeHeaders = (res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json', 'x-pad': 'a'.repeat(1024 * 1024) });
  res.end('{}');
};

const fail = (reason: string) => new RegExp(`^failed: .*${reason}`);

export const HOSTILE_CASES: HostileCase[] = [
  // Registry ingest (x402 bazaar form).
  {
    name: 'x402-big-page',
    target: 'ingest-x402',
    what: 'one page of N items (tens of MB at 200k)',
    serve: (_q, res, o) => json(res, bigPage(o.size)),
    reason: /^ok: $/,
  },
  {
    name: 'x402-endless-body',
    target: 'ingest-x402',
    what: 'chunked body that never ends',
    serve: streaming(200, 'application/json', `${JSON.stringify(x402Item(itemUrl(1)))},`.repeat(64), '{"items":['),
    reason: fail('too_large \\(body over'),
  },
  {
    name: 'x402-declared-huge',
    target: 'ingest-x402',
    what: 'Content-Length of 100 GB',
    serve: (_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(100 * 1024 ** 3) });
      endless(res, ' '.repeat(65536));
    },
    reason: fail('too_large \\(declared'),
  },
  {
    name: 'x402-slow-drip',
    target: 'ingest-x402',
    what: 'body one byte every 20 ms, forever',
    serve: dripping(200, 'application/json'),
    reason: fail('timeout \\(body not complete'),
  },
  {
    name: 'x402-slow-headers',
    target: 'ingest-x402',
    what: 'no response headers, ever',
    serve: silent,
    reason: fail('timeout'),
  },
  {
    name: 'x402-huge-headers',
    target: 'ingest-x402',
    what: '1 MiB response header',
    serve: (_q, res) => hugeHeaders(res),
    reason: fail('too_large \\(response headers'),
  },
  {
    name: 'x402-gzip-bomb',
    target: 'ingest-x402',
    what: 'gzip body of ~1 KB per MiB, inflating to 1.5x the cap',
    serve: (_q, res, o) => json(res, gzipBomb(Math.ceil((o.maxBytes * 1.5) / 1024 / 1024)), 200, { 'content-encoding': 'gzip' }),
    reason: fail('too_large \\(gzip data inflates'),
  },
  {
    name: 'x402-deep-json',
    target: 'ingest-x402',
    what: 'an item nested 100,000 levels deep',
    serve: (_q, res) => json(res, x402Page([x402Item(itemUrl(1))]).replace('"type":"http"', `"type":"http","deep":${deep(100_000)}`)),
    reason: fail('too_large \\(JSON nested deeper'),
  },
  {
    name: 'x402-invalid-utf8',
    target: 'ingest-x402',
    what: 'invalid UTF-8 bytes inside a description',
    serve: (_q, res) => json(res, withBadBytes(x402Page([x402Item(itemUrl(1), { description: 'a@@b' })]), '@@', INVALID_UTF8)),
    reason: /^ok: $/,
    facts: { services: 1, nul: 0, replacement: 1 },
  },
  {
    name: 'x402-nul-escaped',
    target: 'ingest-x402',
    what: 'NUL (\\u0000) and controls in names and descriptions',
    serve: (_q, res) => json(res, x402Page([x402Item(itemUrl(1), { description: 'a\u0000b\u0007c', serviceName: 'x\u0000y' })])),
    reason: /^ok: $/,
    facts: { services: 1, nul: 0 },
  },
  {
    name: 'x402-nul-raw',
    target: 'ingest-x402',
    what: 'a raw NUL byte inside a JSON string',
    serve: (_q, res) => json(res, withBadBytes(x402Page([x402Item(itemUrl(1), { description: 'a@@b' })]), '@@', Buffer.from([0]))),
    reason: fail('not JSON'),
  },
  {
    name: 'x402-megabyte-description',
    target: 'ingest-x402',
    what: 'a description of a quarter of the cap (16 MiB in production)',
    serve: (_q, res, o) => json(res, x402Page([x402Item(itemUrl(1), { description: 'x'.repeat(o.maxBytes / 4) })])),
    reason: /^ok: $/,
    facts: { services: 1, max_description: 500 },
  },
  // Registry ingest (MCP registry form).
  {
    name: 'mcp-endless-body',
    target: 'ingest-mcp',
    what: 'chunked body that never ends',
    serve: streaming(200, 'application/json', `${JSON.stringify(mcpEntry('io.example/x', remoteUrl(1)))},`.repeat(64), '{"servers":['),
    reason: fail('too_large \\(body over'),
  },
  {
    name: 'mcp-deep-json',
    target: 'ingest-mcp',
    what: 'an entry nested 100,000 levels deep',
    serve: (_q, res) =>
      json(res, JSON.stringify({ servers: [{ server: { name: 'io.example/x' }, deep: [] }] }).replace('[]', deep(100_000))),
    reason: fail('too_large \\(JSON nested deeper'),
  },
  {
    name: 'mcp-megabyte-description',
    target: 'ingest-mcp',
    what: 'a description of cap/16 NULs, each escaped as \\u0000',
    serve: (_q, res, o) =>
      json(
        res,
        JSON.stringify({
          servers: [mcpEntry('io.example/x', remoteUrl(1), 'active', undefined, { description: 'x\u0000'.repeat(o.maxBytes / 16) })],
          metadata: {},
        }),
      ),
    reason: /^ok: $/,
    facts: { services: 1, nul: 0, max_description: 500 },
  },
  // The probe (x402 call, 402 expected).
  {
    name: 'probe-endless-402',
    target: 'probe',
    what: '402 with a body that never ends',
    serve: streaming(402, 'application/json', ' '.repeat(65536)),
    reason: /^too_large: /,
  },
  {
    name: 'probe-huge-headers',
    target: 'probe',
    what: '1 MiB response header',
    serve: (_q, res) => hugeHeaders(res),
    reason: /^too_large: /,
  },
  {
    name: 'probe-slow-headers',
    target: 'probe',
    what: 'no response headers, ever',
    serve: silent,
    reason: /^timeout: /,
  },
  {
    name: 'probe-slow-drip',
    target: 'probe',
    what: '402 body one byte every 20 ms, forever',
    serve: dripping(402, 'application/json'),
    reason: /^timeout: /,
  },
  {
    name: 'probe-gzip-bomb',
    target: 'probe',
    what: '402 body gzip-encoded, 100 MB inflated',
    serve: (_q, res) => json(res, gzipBomb(100), 402, { 'content-encoding': 'gzip' }),
    reason: /^(invalid_payment_request|too_large): /,
  },
  {
    name: 'probe-deep-json',
    target: 'probe',
    what: '402 body nested 100,000 levels deep',
    serve: (_q, res) => json(res, `{"x402Version":2,"accepts":${deep(100_000)}}`, 402),
    reason: /^(invalid_payment_request|too_large): /,
  },
  {
    name: 'probe-nul-invalid-utf8',
    target: 'probe',
    what: '402 body with NUL and invalid UTF-8',
    serve: (_q, res) =>
      json(res, withBadBytes('{"x402Version":2,"error":"@@"}', '@@', Buffer.concat([Buffer.from([0]), INVALID_UTF8])), 402),
    reason: /^invalid_payment_request: /,
  },
  // The docs pipeline (a documentation page of a reviewed service).
  {
    name: 'docs-endless-page',
    target: 'docs',
    what: 'an HTML page that never ends',
    serve: streaming(200, 'text/html', '<p>docs</p>'.repeat(4096)),
    reason: /^ok: too_large: body cut/,
    facts: { snapshots: 0 },
  },
  {
    name: 'docs-slow-drip',
    target: 'docs',
    what: 'a page one byte every 20 ms, forever',
    serve: dripping(200, 'text/html'),
    reason: /^timeout: /,
    facts: { snapshots: 0 },
  },
  {
    name: 'docs-deep-html',
    target: 'docs',
    what: '40,000 nested <div>s',
    serve: (_q, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<html><body>${'<div>'.repeat(40_000)}deep text${'</div>'.repeat(10)}</body></html>`);
    },
    reason: /^ok: $/,
    facts: { snapshots: 1 },
  },
  {
    name: 'docs-deep-json',
    target: 'docs',
    what: 'a JSON page nested 100,000 levels deep',
    serve: (_q, res) => json(res, deep(100_000)),
    reason: /^ok: $/,
    facts: { snapshots: 1 },
  },
  {
    name: 'docs-nul-invalid-utf8',
    target: 'docs',
    what: 'a page with NUL bytes and invalid UTF-8',
    serve: (_q, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(withBadBytes('<html><body><h1>API</h1><p>a@@b</p></body></html>', '@@', Buffer.concat([Buffer.from([0, 0]), INVALID_UTF8])));
    },
    reason: /^ok: $/,
    facts: { snapshots: 1, nul: 0 },
  },
];

export interface HostileServer {
  url: string;
  close: () => Promise<void>;
}

/** One server for the whole table: `/<case name>/…` runs that case's handler. */
export async function startHostileServer(o: CaseOptions): Promise<HostileServer> {
  const byName = new Map(HOSTILE_CASES.map((c) => [c.name, c]));
  bigPage(o.size); // built now, so the request is not answered late on a loaded machine
  const server = createServer((req, res) => {
    const name = new URL(req.url ?? '/', 'http://x').pathname.split('/')[1] ?? '';
    const c = byName.get(name);
    if (!c) return json(res, '{"error":"no such case"}', 404);
    c.serve(req, res, o);
  });
  server.keepAliveTimeout = 1;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/**
 * The database every case starts from: a registry ingested from a snapshot file (services,
 * operations, listing events, a run, sync state), its operations disabled so no probe touches
 * them, and the service under test (`cand_hostile` / `svc_hostile`) pointing at the case's route.
 */
export async function seedHostileDb(dir: string, c: HostileCase, base: string): Promise<void> {
  const ctx = makeContext(dir);
  const store = await openTestStore(dir);
  try {
    const file = join(dir, 'prior-registry.json');
    writeFileSync(file, x402Page([1, 2, 3].map((i) => x402Item(`http://127.0.0.1:9/prior/${i}`, { description: `prior ${i}` }))));
    await ingestX402(ctx, store, { source: file, registry: 'cdp' });
    await store.run('UPDATE operations SET enabled = false');
    // As an ingest would: the change of `enabled` becomes an activity period (migration 005), so
    // the case's own ingest finds nothing of the seed's to record again.
    await recordActivity(store, ctx.clock(), 'registry');
    const url = `${base}/${c.name}/`;
    if (c.target === 'probe')
      await seedServices(store, [{ id: 'cand_hostile', tier: 'discovered', ops: [{ url, rule: 'x402-mainnet/1' }] }]);
    if (c.target === 'docs')
      await seedServices(store, [
        {
          id: 'svc_hostile',
          tier: 'reviewed',
          ops: [
            { url: `${base}/none/api`, rule: 'reviewed/1', enabled: false },
            { id: 'docs', kind: 'documentation', url, rule: 'reviewed/1', expected: [200] },
          ],
        },
      ]);
  } finally {
    store.close();
  }
}

/** Every row of every table as JSON text, rows of the service under test (`hostile`) left out. */
export async function earlierRows(dir: string): Promise<Set<string>> {
  const store = await openStore(join(dir, 'atlas.duckdb'), { readOnly: true });
  try {
    const tables = await store.all<{ t: string }>(
      `SELECT table_name AS t FROM information_schema.tables WHERE table_type = 'BASE TABLE' ORDER BY 1`,
    );
    const out = new Set<string>();
    for (const { t } of tables)
      for (const row of await store.all(`SELECT * FROM "${t}"`)) {
        const s = `${t} ${JSON.stringify(row)}`;
        if (!s.includes('hostile')) out.add(s);
      }
    return out;
  } finally {
    store.close();
  }
}

export interface CaseResult {
  name: string;
  /** The child's exit code (0: it finished on its own). */
  exitCode: number | null;
  reason: string;
  facts: Record<string, unknown>;
  /** Peak RSS of the child (VmHWM, see hostile-child.ts), MiB. */
  peakRssMiB: number;
  ms: number;
  /** Rows present before the child ran that are gone or changed after it. */
  earlierRowsLost: number;
}

interface ChildReport {
  i: number;
  reason: string;
  facts: Record<string, unknown>;
  maxRssKb: number;
  ms: number;
}

/**
 * Seed each case's database, run the cases in ONE child (in order), read back. The bench gives each
 * case its own child (peak RSS is per process); the test groups them to spare process start-ups.
 * The child's stdout/stderr are inherited.
 */
export async function runCases(
  cases: readonly HostileCase[],
  server: HostileServer,
  dirs: readonly string[],
  limits: ChildLimits,
): Promise<CaseResult[]> {
  const before: Set<string>[] = [];
  for (const [i, c] of cases.entries()) {
    await seedHostileDb(dirs[i]!, c, server.url);
    before.push(await earlierRows(dirs[i]!));
  }
  const jobs = cases.map((c, i) => ({ target: c.target, url: `${server.url}/${c.name}/`, dir: dirs[i]! }));
  const child = fork(fileURLToPath(new URL('./hostile-child.ts', import.meta.url)), [JSON.stringify({ limits, jobs })], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const reports = new Map<number, ChildReport>();
  child.on('message', (m) => reports.set((m as ChildReport).i, m as ChildReport));
  const exitCode = await new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const out: CaseResult[] = [];
  for (const [i, c] of cases.entries()) {
    const after = await earlierRows(dirs[i]!);
    let lost = 0;
    for (const row of before[i]!) if (!after.has(row)) lost++;
    const rep = reports.get(i);
    out.push({
      name: c.name,
      exitCode,
      reason: rep?.reason ?? '(no report)',
      facts: rep?.facts ?? {},
      peakRssMiB: rep ? Math.round(rep.maxRssKb / 1024) : Number.NaN,
      ms: rep ? Math.round(rep.ms) : Number.NaN,
      earlierRowsLost: lost,
    });
  }
  return out;
}
