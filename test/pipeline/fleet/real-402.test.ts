import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../../pipeline/core/paths.ts';
import {
  fleetAgent,
  loadReal402Responses,
  parseReal402Examples,
  REAL_402_EXPECTED,
  REAL_402_FILES,
  realdataDir,
  startFleet,
  type Fleet,
  type Real402Response,
} from '../../../pipeline/fleet/index.ts';
import type { DueOperation } from '../../../pipeline/probe/due.ts';
import { probeOne } from '../../../pipeline/probe/probe-one.ts';
import { x402MainnetRule } from '../../../pipeline/probe/rules/x402-mainnet.ts';
import { createProbeAgent, safeFetch, type EdgeRequest } from '../../../pipeline/probe/safe-fetch.ts';
import { readPaymentRequest } from '../../../pipeline/x402/payment-request.ts';
import { testClock, tempDir } from '../../helpers/context.ts';
import { REAL_402_TABLE, realResponses } from '../../helpers/real-402.ts';
import { realdataGate } from '../../helpers/realdata-gate.ts';
import { hit } from './hit.ts';

/**
 * Real 402 responses quoted from public issue threads, served by the fleet as `real-402:<id>`
 * behaviours: the bytes on the wire are the quoted ones, and the probe's own code gives each the
 * verdict, reason and detail of REAL_402_TABLE (why: docs/notes/fleet.md, "Real 402 responses").
 * The responses are read at run time from the realdata folder; without it the suites that need them
 * are skipped with one printed line (a failure in CI: test/helpers/realdata-gate.ts).
 */
const clock = testClock('2026-11-25T12:00:00Z');
const agent = fleetAgent();
let responses: Real402Response[];
let fleet: Fleet;
let dispatcher: ReturnType<typeof createProbeAgent> | undefined;

const gate = realdataGate('real 402 responses (test/pipeline/fleet/real-402.test.ts)', REAL_402_FILES);
afterAll(async () => {
  await dispatcher?.close();
  await agent.close();
});

const byId = (id: string) => responses.find((r) => r.id === id)!;
const ep = (id: string) => fleet.endpoint(`real-402-${id}`);

describe.skipIf(!gate.present)('with the real 402 responses', () => {
  beforeAll(async () => {
    responses = realResponses();
    fleet = await startFleet({ clock, real402: responses });
  });
  afterAll(async () => {
    await fleet?.close();
  });

  describe('the realdata file', () => {
    it('holds exactly the responses the table (and the fleet) has a verdict for', () => {
      expect(responses.map((r) => r.id).sort()).toEqual(Object.keys(REAL_402_TABLE).sort());
      expect(Object.keys(REAL_402_EXPECTED).sort()).toEqual(Object.keys(REAL_402_TABLE).sort());
    });

    it('keeps only header lines quoted in full (the truncated Payment-Required value is not served)', () => {
      const strale = byId('strale-iban-validate');
      expect(strale.headers['payment-required']).toBeUndefined();
      expect(strale.omitted).toEqual(['Payment-Required (value quoted incomplete)']);
      expect(strale.headers['access-control-expose-headers']).toBe('Payment-Required,X-Payment-Response');
      expect(strale).toMatchObject({ method: 'GET', path: '/x402/iban-validate', status: 402 });
      const stellar = byId('mpprouter-firecrawl-scrape-stellar');
      expect(stellar.headers['payment-required']).toMatch(/^eyJ4NDAyVmVyc2lvbiI6Mi/);
      expect(stellar.body).toBe('');
      expect(stellar).toMatchObject({ method: 'GET', path: '/v1/services/firecrawl/scrape' });
      // Reporter prose about headers whose values were not quoted is not a header.
      expect(byId('losbeto-analise-solana').omitted).toHaveLength(1);
      expect(byId('losbeto-analise-solana').headers).toEqual({ 'content-type': 'application/json' });
    });

    it('reads the 2026 shapes: verbatim header objects, parsed bodies, WWW-Authenticate values, decoded requests', () => {
      const arc = byId('arcgate-box-create-arc');
      expect(arc).toMatchObject({ method: 'POST', status: 402, omitted: [], reconstructed: [] });
      expect(arc.headers).toMatchObject({ 'content-type': 'application/json; charset=utf-8', 'x-request-id': '117c7239' });
      expect(JSON.parse(arc.body)).toMatchObject({ error: { code: 'payment_required' }, next: 'pay' });
      // A request quoted only decoded is served re-encoded, and says so; the body stays the quoted {}.
      const facts = byId('x402uselessfacts-empty-body');
      expect(facts.body).toBe('{}');
      expect(facts.reconstructed).toEqual([
        'PAYMENT-REQUIRED encoded from the decoded request the source quotes',
        'resource.url set to the request URL (the source quotes no resource)',
      ]);
      expect(JSON.parse(Buffer.from(facts.headers['payment-required']!, 'base64').toString())).toMatchObject({
        x402Version: 2,
        resource: { url: 'https://x402uselessfacts.vercel.app/api/useless-fact' },
        accepts: [{ network: 'eip155:8453', amount: '1000' }],
      });
      // Quoted MCP tool results: an HTTP 200 is served as quoted; one without any status as the 402 it would be.
      expect(byId('arcgate-mcp-tradesearch-x402-over-mcp')).toMatchObject({ status: 200, method: 'POST', path: '/mcp' });
      expect(byId('apify-upto-and-exact-x402-over-mcp')).toMatchObject({ status: 402, body: '{}', method: 'POST' });
      expect(byId('locus-rentcast-mpp-tempo-charge').headers['www-authenticate']).toMatch(/^Payment id="OQ8E/);
      expect(byId('myceliasignal-l402').headers['www-authenticate']).toMatch(/^L402 macaroon="/);
      // the SIWX request keeps its empty accepts (no resource is added to a request without offers)
      const siwx = byId('agonx402-siwx-auth-only');
      expect(JSON.parse(Buffer.from(siwx.headers['payment-required']!, 'base64').toString())).not.toHaveProperty('resource');
    });
  });

  describe('real 402 behaviours on the wire', () => {
    it('serve the quoted status, headers and body bytes on their own host and path', async () => {
      for (const r of responses) {
        const e = ep(r.id);
        expect(e.behaviour).toBe(`real-402:${r.id}`);
        expect(e.protocol).toBe('x402');
        expect(new URL(e.url).pathname).toBe(r.path);
        const h = await hit(agent, e.url, { method: e.method });
        expect(h.status).toBe(r.status);
        expect(h.body).toBe(r.body);
        for (const [k, v] of Object.entries(r.headers)) expect(h.headers[k], `${r.id} ${k}`).toBe(v);
      }
    });

    it('the fleet expects the table verdicts, whatever the time', () => {
      for (const [id, want] of Object.entries(REAL_402_TABLE)) {
        const got = { passed: want.passed, reason: want.reason, status: want.status };
        expect(ep(id).expected).toEqual(got);
        expect(ep(id).expectedAt(new Date('2027-06-01T00:00:00Z'))).toEqual(got);
      }
    });

    it("the probe's own code (probeOne + safeFetch) gives each the table's verdict, reason and detail", async () => {
      const opts = { timeoutMs: 5000, maxBodyBytes: 256 * 1024, maxHeaderBytes: 128 * 1024, allowPrivate: true, resolveMap: fleet.resolve };
      dispatcher = createProbeAgent(opts);
      const fetcher = (req: EdgeRequest) => safeFetch(req, { ...opts, dispatcher });
      for (const [id, want] of Object.entries(REAL_402_TABLE)) {
        const e = ep(id);
        const op: DueOperation = {
          serviceId: 'cand_real',
          operation: 'primary',
          kind: 'call',
          url: e.url,
          method: e.method,
          expectedStatuses: [],
          passRule: 'x402-mainnet/2',
          intervalHours: 24,
          protocol: 'x402',
          slot: clock(),
        };
        const out = await probeOne(op, {
          fetcher,
          settings: { userAgent: 'AtlasFleetTest/1', contactUrl: 'https://atlas.example/probe' },
          secret: 'fleet-test',
          now: clock,
        });
        const got = {
          passed: out.verdict.passed,
          reason: out.verdict.reason,
          status: out.response.ok ? out.response.status : null,
          detail: out.verdict.detail,
        };
        expect(got, id).toEqual({ passed: want.passed, reason: want.reason, status: want.status, detail: want.detail });
      }
    });
  });

  describe('the quirks, one by one (pure: the rule on the parsed response)', () => {
    const judge = (headers: Record<string, string>, body: string) =>
      x402MainnetRule(
        { ok: true, status: 402, headers, body: Buffer.from(body), bytes: body.length, truncated: false, ttfbMs: 1, totalMs: 1 },
        readPaymentRequest(headers, Buffer.from(body)),
      );

    it('strale: serving the header as well would not change the verdict if it carried the body (the reporter says a v1 payload)', () => {
      const r = byId('strale-iban-validate');
      const asHeader = Buffer.from(JSON.stringify(JSON.parse(r.body))).toString('base64');
      const withHeader = judge({ ...r.headers, 'payment-required': asHeader }, r.body);
      expect(withHeader).toMatchObject({ passed: false, reason: 'invalid_payment_request' });
      expect(withHeader.detail).toBe(`header: ${REAL_402_TABLE['strale-iban-validate']!.detail!.replace(/^body: /, '')}`);
    });

    it('strale: its standard-shaped v1 offer (under `paymentRequirements`) would pass if it were where the standard puts it (`accepts`)', () => {
      const raw = JSON.parse(byId('strale-iban-validate').body) as { paymentRequirements: unknown[] };
      const fixed = JSON.stringify({ x402Version: 1, error: 'Payment required', accepts: raw.paymentRequirements });
      expect(judge({}, fixed)).toMatchObject({ passed: true, reason: 'ok', detail: null });
    });

    it('crypto-sentiment: only the empty asset fails it (with a token address the same body passes)', () => {
      const body = byId('crypto-sentiment-btc').body.replace('"asset": ""', '"asset": "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"');
      expect(body).not.toBe(byId('crypto-sentiment-btc').body);
      // payTo "walletaddress" is not checked by the schema (any non-empty string): the rule does not verify addresses.
      expect(judge({}, body)).toMatchObject({ passed: true, reason: 'ok' });
    });

    it('losbeto: the CAIP-2 network decides; the same body on Solana devnet is testnet_only', () => {
      const body = byId('losbeto-analise-solana').body.replace(
        'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
        'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
      );
      expect(judge({}, body)).toMatchObject({ passed: false, reason: 'testnet_only' });
    });
  });
});

describe('loading', () => {
  it('fails with a message naming the folder and ATLAS_REALDATA when the file is absent', () => {
    const t = tempDir();
    try {
      expect(() => loadReal402Responses(t.dir)).toThrow(/real 402 responses not found at .*ATLAS_REALDATA/s);
    } finally {
      t.cleanup();
    }
  });

  it('resolves ../shared/realdata next to the repository, or ATLAS_REALDATA', () => {
    expect(realdataDir({})).toBe(resolve(PROJECT_ROOT, '..', 'shared', 'realdata'));
    expect(realdataDir({ ATLAS_REALDATA: '/data/rd' })).toBe('/data/rd');
    expect(realdataDir({ ATLAS_REALDATA: 'rel/rd' })).toBe(resolve(PROJECT_ROOT, 'rel/rd'));
  });

  it('reads a file from a given folder; a response without a decided verdict is refused at start', async () => {
    const t = tempDir();
    try {
      mkdirSync(join(t.dir, 'x402'));
      const file = { examples: [{ id: 'someone-else', request: 'POST https://a.example/p?q=1', status: 402, body_verbatim: '{}' }] };
      writeFileSync(join(t.dir, 'x402', 'real-402-examples.json'), JSON.stringify(file));
      // both files are read; the second one is missing at first
      expect(() => loadReal402Responses(t.dir)).toThrow(/real-402-examples-2026\.json/);
      const second = { examples: [{ id: 'someone-else', request: 'https://b.example/', status: 402 }] };
      writeFileSync(join(t.dir, 'x402', 'real-402-examples-2026.json'), JSON.stringify(second));
      expect(() => loadReal402Responses(t.dir)).toThrow(/duplicate id someone-else/);
      second.examples[0]!.id = 'another-one';
      writeFileSync(join(t.dir, 'x402', 'real-402-examples-2026.json'), JSON.stringify(second));
      const got = loadReal402Responses(t.dir);
      expect(got).toEqual([...parseReal402Examples(file), ...parseReal402Examples(second)]);
      expect(got[0]).toMatchObject({ method: 'POST', path: '/p?q=1', headers: { 'content-type': 'application/json' } });
      await expect(startFleet({ clock, real402: got })).rejects.toThrow(/no expected verdict .*someone-else.*REAL_402_EXPECTED/);
    } finally {
      t.cleanup();
    }
  });

  it('the default fleet (the demo) has no real 402 endpoint and needs no file', async () => {
    const plain = await startFleet({ clock });
    try {
      expect(plain.endpoints.some((e) => e.behaviour.startsWith('real-402:'))).toBe(false);
    } finally {
      await plain.close();
    }
  });
});
