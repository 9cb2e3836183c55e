import { encodePaymentRequiredHeader } from '@x402/core/http';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../pipeline/core/config.ts';
import { slotStart } from '../../../pipeline/core/slots.ts';
import { keyedHash } from '../../../pipeline/core/secret.ts';
import { runProbe, selectDue, type EdgeResult, type Fetcher } from '../../../pipeline/probe/index.ts';
import type { Store } from '../../../pipeline/store/store.ts';
import { makeContext, testClock, withTestStore } from '../../helpers/context.ts';
import { PAY_TO, v2Request } from './behaviour-server.ts';
import { seedServices } from './seed.ts';

/** runProbe with an injected fetcher: scheduling, idempotency, shards, terms rows, the docs sink. */
const ok402: EdgeResult = {
  ok: true,
  status: 402,
  headers: { 'payment-required': encodePaymentRequiredHeader(v2Request() as never) },
  body: Buffer.from('{}'),
  bytes: 2,
  truncated: false,
  ttfbMs: 3,
  totalMs: 4,
};
const page = (html: string): EdgeResult => ({
  ok: true,
  status: 200,
  headers: { 'content-type': 'text/html' },
  body: Buffer.from(html),
  bytes: html.length,
  truncated: false,
  ttfbMs: 1,
  totalMs: 2,
});

const seedMix = (store: Store) =>
  seedServices(store, [
    {
      id: 'svc_active',
      ops: [
        { url: 'https://a.example/x', rule: 'reviewed/1' },
        { kind: 'documentation', id: 'docs', url: 'https://a.example/docs', rule: 'reviewed/1', expected: [200], intervalHours: 24 },
      ],
    },
    { id: 'svc_inactive', active: false, ops: [{ url: 'https://b.example/x', rule: 'reviewed/1' }] },
    { id: 'cand_unlisted', listed: false, ops: [{ url: 'https://c.example/x', rule: 'x402-mainnet/2', intervalHours: 720 }] },
    { id: 'cand_weekly', ops: [{ url: 'https://d.example/x', rule: 'x402-mainnet/2', intervalHours: 168 }] },
    { id: 'cand_disabled', ops: [{ url: 'https://e.example/x', rule: 'x402-mainnet/2', enabled: false }] },
    { id: 'cand_mcp', ops: [{ url: 'https://f.example/mcp', rule: 'mcp-reach/3' }] },
  ]);

describe('what is due', () => {
  it('enabled operations of active reviewed and all discovered services, in their current slot', async () => {
    await withTestStore(async (store) => {
      await seedMix(store);
      const now = new Date('2026-11-25T12:34:56Z');
      const due = await selectDue(store, now);
      expect(due.map((d) => `${d.serviceId}/${d.operation}`)).toEqual([
        'cand_mcp/primary',
        'cand_unlisted/primary',
        'cand_weekly/primary',
        'svc_active/docs',
        'svc_active/primary',
      ]);
      for (const d of due) expect(d.slot).toEqual(slotStart(now, d.intervalHours));
      expect((await selectDue(store, now, { only: 'documentation' })).map((d) => d.operation)).toEqual(['docs']);
      expect(await selectDue(store, now, { only: 'calls' })).toHaveLength(4);
    });
  });
});

describe('runProbe', () => {
  it('one row per slot: a rerun stores nothing, a new slot only for what is due, --all never duplicates', async () => {
    await withTestStore(async (store, dir) => {
      await seedMix(store);
      const clock = testClock('2026-11-25T12:10:00Z');
      const calls: string[] = [];
      const fetcher: Fetcher = async (req) => {
        calls.push(req.url);
        return req.url.endsWith('/docs') ? page('<h1>docs</h1>') : req.url.endsWith('/mcp') ? { ...ok402, status: 406 } : ok402;
      };
      const ctx = makeContext(dir, { clock });
      const first = await runProbe(ctx, store, { fetcher });
      expect(first.counts).toMatchObject({ due: 5, probed: 5, stored: 5, passed: 5, failed: 0, payment_terms: 3 });
      expect((await runProbe(ctx, store, { fetcher })).counts).toMatchObject({ due: 0, probed: 0, stored: 0 });
      const all = await runProbe(ctx, store, { fetcher, all: true });
      expect(all.counts).toMatchObject({ due: 5, probed: 5, stored: 0, skipped_existing_slot: 5 });
      clock.set('2026-11-25T13:00:00Z');
      const next = await runProbe(ctx, store, { fetcher });
      expect(next.counts).toMatchObject({ due: 1, stored: 1 });
      const dup = await store.all<{ n: number }>(
        'SELECT count(*)::INT AS n FROM (SELECT service_id, operation, slot FROM checks GROUP BY ALL HAVING count(*) > 1)',
      );
      expect(dup[0]!.n).toBe(0);
      const terms = await store.all<{ n: number }>('SELECT count(*)::INT AS n FROM payment_terms');
      expect(terms[0]!.n).toBe(4);
      const runs = await store.all<{ status: string; counts: string }>('SELECT status, counts FROM runs ORDER BY started_at, id');
      expect(runs).toHaveLength(4);
      expect(runs.every((r) => r.status === 'ok')).toBe(true);
    });
  });

  it('stores the payment terms row with hashed payTo and sorted arrays', async () => {
    await withTestStore(async (store, dir) => {
      await seedServices(store, [{ id: 'cand_t', ops: [{ url: 'https://t.example/x', rule: 'x402-mainnet/2' }] }]);
      const ctx = makeContext(dir, { now: '2026-11-25T12:10:00Z' });
      await runProbe(ctx, store, { fetcher: async () => ok402 });
      const rows = await store.all<Record<string, unknown>>(
        'SELECT slot::VARCHAR AS slot, x402_version, networks, schemes, pay_to_hashes, timeouts, min_price_usd, offers::VARCHAR AS offers, length(terms_hash)::INT AS hl FROM payment_terms',
      );
      expect(rows).toEqual([
        {
          slot: '2026-11-25 00:00:00',
          x402_version: 2,
          networks: ['eip155:8453'],
          schemes: ['exact'],
          pay_to_hashes: [keyedHash(ctx.secret, 'pay_to', PAY_TO.toLowerCase())],
          timeouts: [60],
          min_price_usd: 0.01,
          offers: expect.stringContaining('"pay_to_hash"'),
          hl: 64,
        },
      ]);
      expect(String(rows[0]!.offers)).not.toContain(PAY_TO);
      const check = await store.all<Record<string, unknown>>(
        'SELECT status, passed, reason, rule, latency_ms, ttfb_ms, method, bytes FROM checks',
      );
      expect(check).toEqual([
        { status: 402, passed: true, reason: 'ok', rule: 'x402-mainnet/2', latency_ms: 4, ttfb_ms: 3, method: 'GET', bytes: 2 },
      ]);
    });
  });

  it('shards partition services; --only documentation records a docs run and feeds the sink after the row is durable', async () => {
    await withTestStore(async (store, dir) => {
      await seedServices(
        store,
        Array.from({ length: 40 }, (_, i) => ({
          id: `cand_${i}`,
          ops: [{ url: `https://h${i}.example/x`, rule: 'x402-mainnet/2' as const }],
        })),
      );
      await seedMix(store);
      const ctx = makeContext(dir, { now: '2026-11-25T12:10:00Z' });
      const fetcher: Fetcher = async (req) => (req.url.endsWith('/docs') ? page('<h1>docs</h1>') : ok402);
      const seen: Array<{ durable: number; body: string | null }> = [];
      const docs = await runProbe(ctx, store, {
        fetcher,
        only: 'documentation',
        onDocumentation: async (d) => {
          const n = await store.all<{ n: number }>("SELECT count(*)::INT AS n FROM checks WHERE operation = 'docs'");
          seen.push({ durable: n[0]!.n, body: d.body?.toString() ?? null });
        },
      });
      expect(docs.kind).toBe('docs');
      expect(seen).toEqual([{ durable: 1, body: '<h1>docs</h1>' }]);
      let total = 0;
      for (let i = 0; i < 3; i++)
        total += (await runProbe(ctx, store, { fetcher, shard: { index: i, count: 3 }, only: 'calls' })).counts.stored;
      expect(total).toBe(44);
      const kinds = await store.all<{ kind: string; n: number }>('SELECT kind, count(*)::INT AS n FROM runs GROUP BY kind ORDER BY kind');
      expect(kinds).toEqual([
        { kind: 'docs', n: 1 },
        { kind: 'probe', n: 3 },
      ]);
    });
  }, 60_000);

  it('bad options are bad_usage', async () => {
    await withTestStore(async (store, dir) => {
      const ctx = makeContext(dir);
      await expect(runProbe(ctx, store, { concurrency: 0 })).rejects.toMatchObject({ code: 'bad_usage' });
      await expect(runProbe(ctx, store, { timeoutMs: 10 })).rejects.toMatchObject({ code: 'bad_usage' });
      await expect(runProbe(ctx, store, { shard: { index: 2, count: 2 } })).rejects.toMatchObject({ code: 'bad_usage' });
      await expect(runProbe(ctx, store, { only: 'x' as never })).rejects.toMatchObject({ code: 'bad_usage' });
    });
  });

  it('respects the per-host limit', async () => {
    await withTestStore(async (store, dir) => {
      await seedServices(
        store,
        Array.from({ length: 12 }, (_, i) => ({
          id: `cand_p${i}`,
          ops: [{ url: `https://same.example/p${i}`, rule: 'x402-mainnet/2' as const }],
        })),
      );
      const cfg = defaultConfig();
      const ctx = makeContext(dir, { config: cfg });
      let inFlight = 0;
      let peak = 0;
      const fetcher: Fetcher = async () => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await new Promise((r) => setImmediate(r));
        await new Promise((r) => setImmediate(r));
        inFlight--;
        return ok402;
      };
      await runProbe(ctx, store, { fetcher, concurrency: 64 });
      expect(peak).toBe(cfg.probe.perHost);
    });
  });
});
