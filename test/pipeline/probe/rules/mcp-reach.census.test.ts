import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectedVerdict, MCP_BEHAVIOURS, type McpBehaviour } from '../../../../pipeline/fleet/behaviours.ts';
import { planFleet } from '../../../../pipeline/fleet/generate.ts';
import { realdataDir } from '../../../../pipeline/fleet/real-402.ts';
import { defaultTimeline } from '../../../../pipeline/fleet/timeline.ts';
import { judge, mcpReachRule, type DueOperation, type EdgeResult } from '../../../../pipeline/probe/index.ts';
import { realdataGate } from '../../../helpers/realdata-gate.ts';

/**
 * Our mcp-reach/3 beside a public MCP census (mcp-pulse, October 2026; docs/notes/mcp-eras.md).
 *
 * The census ran `initialize` (then `tools/list`) with the official SDK on every registry remote; we
 * judge a plain GET. A census row becomes the GET answer our probe would get only where that answer
 * follows from what the census saw:
 * - `wall`: the outcome is decided before the method matters (an auth wall's 401 and its scheme, a
 *   payment wall's 402 — the sample's two are SSE remotes whose GET itself got the 402 —, a path
 *   that is not served, a server error, a redirect): the same status on GET;
 * - `network`: no HTTP answer (dns, tls, timeout): the same failure;
 * - `era`: the protocol era fixes the GET answer: a 2025-era Streamable HTTP server answers a GET that
 *   does not accept an event stream with 405 or (the SDK) 406, a 2026-07-28 server (400 with -32020
 *   to a 2025 initialize) answers GET with 405;
 * - rows whose GET answer the census does not tell (a 200 that was not valid MCP) are not judged.
 * The counts below are pinned: the note quotes them.
 */
const SAMPLE = join('mcp-registry', 'mcp-pulse', 'servers-probe-sample-2026-10-03.json');
const SUMMARY = join('mcp-registry', 'mcp-pulse', 'summary-2026-10-05.json');
const gate = realdataGate('MCP census beside mcp-reach/3 (test/pipeline/probe/rules/mcp-reach.census.test.ts)', [SAMPLE, SUMMARY]);

interface CensusRow {
  name: string;
  transport: 'streamable-http' | 'sse';
  status: string;
  httpStatus?: number | null;
  authScheme?: string | null;
  protocolVersion?: string | null;
  error?: string;
}

type Basis = 'wall' | 'network' | 'era';

const answer = (status: number, headers: Record<string, string> = {}): EdgeResult => ({
  ok: true,
  status,
  headers,
  body: null,
  bytes: 0,
  truncated: false,
  ttfbMs: 1,
  totalMs: 1,
});
const failure = (reason: 'dns' | 'tls' | 'timeout' | 'refused'): EdgeResult => ({
  ok: false,
  reason,
  detail: reason,
  ttfbMs: null,
  totalMs: 1,
});

/** The plain GET answer a census row implies, and on what basis; null when the census does not tell it. */
export function reconstruct(r: CensusRow): { res: EdgeResult; basis: Basis } | null {
  const s = r.httpStatus ?? null;
  switch (r.status) {
    case 'auth':
      return { res: answer(401, r.authScheme ? { 'www-authenticate': `${r.authScheme} realm="mcp"` } : {}), basis: 'wall' };
    case 'payment':
    case 'not_found':
    case 'server_error':
    case 'rate_limited':
      return s === null ? null : { res: answer(s), basis: 'wall' };
    case 'dns':
    case 'tls':
    case 'timeout':
    case 'refused':
      return { res: failure(r.status), basis: 'network' };
    case 'newer_protocol':
      return { res: answer(405, { allow: 'POST' }), basis: 'era' };
    case 'ok':
      return r.transport === 'sse'
        ? { res: answer(200, { 'content-type': 'text/event-stream' }), basis: 'era' }
        : { res: answer(406), basis: 'era' };
    case 'error':
      if (s !== null && s >= 300 && s < 400) return { res: answer(s, { location: 'https://elsewhere.example/' }), basis: 'wall' };
      if (s === 400 && r.error?.includes('-32020')) return { res: answer(405, { allow: 'POST' }), basis: 'era' };
      return null;
    default:
      return null; // protocol_error: a 200 whose MCP was broken says nothing about GET
  }
}

const MCP_OP: DueOperation = {
  serviceId: 's',
  operation: 'primary',
  kind: 'call',
  url: 'https://mcp.example/mcp',
  method: 'GET',
  expectedStatuses: [],
  passRule: 'mcp-reach/3',
  intervalHours: 24,
  protocol: 'mcp',
  slot: new Date(0),
};

/** The census category each fleet MCP behaviour would get from an initialize-then-tools/list prober. */
const CENSUS_CATEGORY: Record<McpBehaviour, string> = {
  'mcp-streamable': 'ok',
  'mcp-2026': 'ok',
  'mcp-legacy-sse': 'ok',
  'mcp-template': 'ok',
  'mcp-outage': 'ok',
  'mcp-2026-only': 'newer_protocol',
  'mcp-auth': 'auth',
  'mcp-auth-no-scheme': 'auth',
  'mcp-forbidden': 'auth',
  'mcp-paid-x402': 'payment',
  'mcp-paid-mpp': 'payment',
  'mcp-protocol-error': 'protocol_error',
  'mcp-website': 'error',
  'mcp-redirect': 'error',
  'mcp-not-found': 'not_found',
  'mcp-template-unfilled': 'not_found',
  'mcp-server-error': 'server_error',
  'mcp-rate-limited': 'rate_limited',
  'mcp-slow': 'timeout',
  'mcp-dead': 'refused',
};

const key = (passed: boolean, reason: string) => `${passed ? 'pass' : 'fail'} ${reason}`;

describe.skipIf(!gate.present)('the MCP census (mcp-pulse, 2026-10) beside mcp-reach/3', () => {
  const dir = realdataDir();
  const rows = gate.present ? (JSON.parse(readFileSync(join(dir, SAMPLE), 'utf8')) as CensusRow[]) : [];
  const summary = gate.present ? (JSON.parse(readFileSync(join(dir, SUMMARY), 'utf8')) as { byStatus: Record<string, number> }) : null;

  it('the sample is the 200-row file the provenance describes', () => {
    expect(rows).toHaveLength(200);
    const by: Record<string, number> = {};
    for (const r of rows) by[r.status] = (by[r.status] ?? 0) + 1;
    expect(by).toEqual({
      ok: 123,
      auth: 53,
      not_found: 8,
      dns: 4,
      error: 3,
      protocol_error: 3,
      payment: 2,
      tls: 2,
      server_error: 1,
      timeout: 1,
    });
  });

  it('our verdict on the GET each sample row implies: census category → verdict, counts', () => {
    const table = new Map<string, number>();
    const schemes = new Map<string, number>();
    let judged = 0;
    for (const r of rows) {
      const g = reconstruct(r);
      const cell = g
        ? `${r.status} | ${g.basis} | ${key(mcpReachRule(g.res).passed, mcpReachRule(g.res).reason)}`
        : `${r.status} | not judged`;
      table.set(cell, (table.get(cell) ?? 0) + 1);
      if (!g) continue;
      judged++;
      const j = judge(MCP_OP, g.res, 'k');
      expect(j.verdict).toEqual(mcpReachRule(g.res));
      if (j.authSchemes) schemes.set(j.authSchemes.join('+') || '(none)', (schemes.get(j.authSchemes.join('+') || '(none)') ?? 0) + 1);
      if (r.status === 'payment') expect(j.protocols).toEqual([]); // the census records no challenge: nothing to classify
    }
    console.log(
      [...table]
        .sort()
        .map(([k, n]) => `${k} | ${n}`)
        .join('\n'),
    );
    expect(Object.fromEntries(table)).toEqual({
      'ok | era | pass ok': 123,
      'auth | wall | pass ok': 53,
      'not_found | wall | fail status_not_allowed': 8,
      'dns | network | fail dns': 4,
      'error | wall | fail redirect': 2,
      'error | era | pass ok': 1,
      'protocol_error | not judged': 3,
      'payment | wall | fail status_not_allowed': 2,
      'tls | network | fail tls': 2,
      'server_error | wall | fail status_not_allowed': 1,
      'timeout | network | fail timeout': 1,
    });
    expect(judged).toBe(197);
    expect(Object.fromEntries(schemes)).toEqual({ bearer: 51, '(none)': 2 });
  });

  it("categories our rule treats differently from the census's reachable: payment fails, a 2026 server passes", () => {
    // The census counts reachable = ok + auth + payment + newer_protocol.
    const b = summary!.byStatus;
    expect(b.ok! + b.auth! + b.payment! + b.newer_protocol!).toBe(20_099);
    // A paid server's GET is 402: not one of mcp-reach/3's statuses.
    expect(mcpReachRule(answer(402)).passed).toBe(false);
    // The census's one 2026-07-28 server in the sample is filed `error`; its GET (405) passes with us.
    const inverso = rows.find((r) => r.error?.includes('-32020'))!;
    expect(inverso.status).toBe('error');
    expect(mcpReachRule(reconstruct(inverso)!.res).passed).toBe(true);
  });

  it("the fleet's MCP verdict mix beside the census totals (generated fleet of 20,000)", () => {
    const tl = defaultTimeline(new Date('2026-11-01T00:00:00Z'));
    const at = new Date('2026-11-01T00:00:00Z');
    const specs = planFleet(20_000, 1).filter((s) => s.protocol === 'mcp');
    const fleet = new Map<string, { n: number; verdicts: Set<string> }>();
    for (const s of specs) {
      const b = s.behaviour as McpBehaviour;
      const cat = CENSUS_CATEGORY[b];
      const v = expectedVerdict(b, at, tl);
      const e = fleet.get(cat) ?? { n: 0, verdicts: new Set<string>() };
      e.n++;
      e.verdicts.add(key(v.passed, v.reason));
      fleet.set(cat, e);
    }
    const total = specs.length;
    const censusTotal = Object.values(summary!.byStatus).reduce((a, n) => a + n, 0);
    expect(censusTotal).toBe(24_660);
    const lines = [...fleet]
      .sort((a, b) => b[1].n - a[1].n)
      .map(
        ([cat, e]) =>
          `${cat} | ${((100 * (summary!.byStatus[cat] ?? 0)) / censusTotal).toFixed(1)}% | ${((100 * e.n) / total).toFixed(1)}% | ${[...e.verdicts].sort().join(', ')}`,
      );
    console.log(`fleet MCP endpoints: ${total}\n${lines.join('\n')}`);
    // Every census category of 1% or more is in the fleet, except what loopback cannot simulate (DNS
    // and TLS failures), and every behaviour maps to a category.
    for (const [cat, n] of Object.entries(summary!.byStatus))
      if (n / censusTotal >= 0.01 && cat !== 'dns' && cat !== 'tls') expect(fleet.has(cat), cat).toBe(true);
    for (const b of MCP_BEHAVIOURS) expect(CENSUS_CATEGORY[b]).toBeTypeOf('string');
    // What each category gets from our rule in the fleet (one verdict per category, outages aside).
    expect(Object.fromEntries([...fleet].map(([c, e]) => [c, [...e.verdicts].sort()]))).toEqual({
      ok: ['pass ok'],
      newer_protocol: ['pass ok'],
      protocol_error: ['pass ok'],
      auth: ['pass ok'],
      payment: ['fail status_not_allowed'],
      error: ['fail redirect', 'pass ok'],
      not_found: ['fail status_not_allowed'],
      server_error: ['fail status_not_allowed'],
      rate_limited: ['fail rate_limited'],
      timeout: ['fail timeout'],
      refused: ['fail refused'],
    });
  });
});
