import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProbe } from '../../../pipeline/probe/index.ts';
import { makeContext, openTestStore, tempDir } from '../../helpers/context.ts';
import { defaultConfig } from '../../../pipeline/core/config.ts';
import { deadPort, startBehaviourServer, type BehaviourServer } from './behaviour-server.ts';
import { seedServices, type SeedService } from './seed.ts';

/** Every behaviour → the verdict Atlas must store (discovered x402 / MCP rules, and reviewed/1). */
const X402: Array<[string, boolean, string, number | null, string?]> = [
  ['x402-v2', true, 'ok', 402],
  ['x402-v1', true, 'ok', 402],
  ['testnet', false, 'testnet_only', 402],
  ['html-paywall', false, 'invalid_payment_request', 402],
  ['bad-base64', false, 'invalid_payment_request', 402],
  ['url-safe', false, 'invalid_payment_request', 402],
  ['cosmetic', true, 'ok', 402],
  ['mislabelled', false, 'invalid_payment_request', 402],
  ['dollar-amount', false, 'invalid_payment_request', 402],
  ['unknown-network', false, 'unknown_network', 402],
  ['big-header', true, 'ok', 402],
  ['get-200-post-402', false, 'not_402', 200],
  ['get-200-post-402', true, 'ok', 402, 'POST'],
  ['wildcard-402', true, 'ok', 402],
  ['status-500', false, 'not_402', 500],
  ['rate-limited', false, 'rate_limited', 429],
  ['slow', false, 'timeout', null],
  ['endless-402', false, 'too_large', 402],
  ['redirect-private', false, 'redirect', 302],
];
const MCP: Array<[string, boolean, string, number | null]> = [
  ['mcp-406', true, 'ok', 406],
  ['mcp-405', true, 'ok', 405],
  ['mcp-401', true, 'ok', 401],
  ['endless-sse', true, 'ok', 200],
  ['website', true, 'ok', 200],
  ['mcp-404', false, 'status_not_allowed', 404],
  ['redirect-private', false, 'redirect', 302],
];

describe('probe against every behaviour', () => {
  let srv: BehaviourServer;
  let dead: number;
  const t = tempDir();
  beforeAll(async () => {
    srv = await startBehaviourServer();
    dead = await deadPort();
  });
  afterAll(async () => {
    await srv.close();
    t.cleanup();
  });

  it('stores the expected verdict, reason and status for each', async () => {
    const now = '2026-11-25T12:10:00Z';
    const store = await openTestStore(t.dir);
    try {
      const services: SeedService[] = [
        ...X402.map(([b, , , , m], i) => ({
          id: `cand_x${i}`,
          ops: [{ url: srv.url(b), method: m ?? 'GET', rule: 'x402-mainnet/2' as const }],
        })),
        ...MCP.map(([b], i) => ({ id: `cand_m${i}`, ops: [{ url: srv.url(b, '/mcp'), rule: 'mcp-reach/3' as const }] })),
        { id: 'cand_dead', ops: [{ url: `http://dead.t.test:${dead}/`, rule: 'x402-mainnet/2' }] },
        {
          id: 'svc_reviewed',
          ops: [
            { url: srv.url('x402-v2'), rule: 'reviewed/1', expected: [402] },
            { kind: 'documentation', url: srv.url('docs', '/docs'), rule: 'reviewed/1', expected: [200], intervalHours: 24 },
          ],
        },
        { id: 'svc_reviewed_bad', ops: [{ url: srv.url('status-500'), rule: 'reviewed/1', expected: [402] }] },
      ];
      await seedServices(store, services);
      const cfg = defaultConfig();
      cfg.probe.resolve = { '*.t.test': '127.0.0.1' };
      cfg.probe.allowPrivate = true;
      const docs: unknown[] = [];
      const ctx = makeContext(t.dir, { now, config: cfg });
      const summary = await runProbe(ctx, store, { timeoutMs: 3000, onDocumentation: async (d) => void docs.push(d) });
      expect(summary.status).toBe('ok');
      const rows = await store.all<{
        service_id: string;
        operation: string;
        passed: boolean;
        reason: string;
        status: number | null;
        rule: string;
        slot: string;
      }>('SELECT service_id, operation, passed, reason, status, rule, slot::VARCHAR AS slot FROM checks ORDER BY service_id, operation');
      const by = new Map(rows.filter((r) => r.operation === 'primary').map((r) => [r.service_id, r]));
      X402.forEach(([b, passed, reason, status], i) => {
        expect({ b, ...by.get(`cand_x${i}`) }).toMatchObject({
          b,
          passed,
          reason,
          status,
          rule: 'x402-mainnet/2',
          slot: '2026-11-25 00:00:00',
        });
      });
      MCP.forEach(([b, passed, reason, status], i) => {
        expect({ b, ...by.get(`cand_m${i}`) }).toMatchObject({ b, passed, reason, status, rule: 'mcp-reach/3' });
      });
      expect(by.get('cand_dead')).toMatchObject({ passed: false, reason: 'refused', status: null });
      expect(by.get('svc_reviewed')).toMatchObject({
        passed: true,
        reason: 'ok',
        status: 402,
        rule: 'reviewed/1',
        slot: '2026-11-25 12:00:00',
      });
      expect(rows.find((r) => r.service_id === 'svc_reviewed' && r.operation === 'op1')).toMatchObject({
        passed: true,
        reason: 'ok',
        status: 200,
        slot: '2026-11-25 00:00:00',
      });
      expect(by.get('svc_reviewed_bad')).toMatchObject({ passed: false, reason: 'status_not_expected', status: 500 });
      expect(rows.length).toBe(X402.length + MCP.length + 1 + 3);
      // Payment terms: every valid request, reviewed or discovered, whatever the verdict.
      const terms = await store.all<{ service_id: string; networks: string[] }>(
        'SELECT service_id, networks FROM payment_terms ORDER BY service_id',
      );
      const termIds = terms.map((r) => r.service_id);
      expect(termIds).toContain('svc_reviewed');
      X402.forEach(([b, passed, reason], i) => {
        // Well-formed requests are observed even when they fail the rule (test or unknown networks).
        const valid = passed || reason === 'testnet_only' || b === 'unknown-network';
        expect({ b, has: termIds.includes(`cand_x${i}`) }).toEqual({ b, has: valid });
      });
      expect(docs).toHaveLength(1);
      // The redirect target was never contacted; the probe sent no credentials and identified itself.
      const postSeen = srv.seen.find((s) => s.method === 'POST');
      expect(postSeen?.body).toBe('{}');
      expect(postSeen?.headers['content-type']).toBe('application/json');
      for (const s of srv.seen) {
        expect(s.headers['user-agent']).toBe(`${cfg.probe.userAgent} (+${cfg.probe.contactUrl})`);
        expect(s.headers.cookie).toBeUndefined();
        expect(s.headers.authorization).toBeUndefined();
      }
      const run = await store.all<{ status: string; counts: string; kind: string }>('SELECT status, counts, kind FROM runs');
      expect(run).toHaveLength(1);
      expect(run[0]).toMatchObject({ status: 'ok', kind: 'probe' });
      expect(JSON.parse(run[0]!.counts).stored).toBe(rows.length);
    } finally {
      store.close();
    }
  }, 60_000);
});
