import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { decodePaymentResponseHeader } from '@x402/core/http';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../pipeline/core/config.ts';
import { fleetAgent, fleetConfig, startFleet } from '../../pipeline/fleet/index.ts';
import { SIGNED_RECEIPT_CASES } from '../../pipeline/fleet/signed-receipts.ts';
import { runCycle } from '../../pipeline/cycle/index.ts';
import { runProbe } from '../../pipeline/probe/index.ts';
import { publish } from '../../pipeline/publish/index.ts';
import { withStore } from '../../pipeline/store/index.ts';
import { startServer } from '../../serve/index.ts';
import { OutcomeReceipt, ServiceDetail } from '../../site/contract/index.ts';
import { runCli } from '../helpers/cli.ts';
import { makeContext, openTestStore, tempDir, testClock } from '../helpers/context.ts';
import { seedServices } from '../pipeline/probe/seed.ts';

/**
 * The user's path, over real sockets and a spawned CLI: the probe sees each receipt seller's 402
 * (its payee address, stored as a keyed hash) → an agent pays a seller (the fleet's paid call) and
 * gets a settlement response with a signed receipt → it POSTs its outcome report with that receipt
 * to `atlas serve` → the inbox log → `atlas ingest inbox` (verifies each receipt) → moderation and
 * publish → the server loads the generation → GET /api/v1/services/{id} shows the report under
 * verified or not_verified, and the database says why. Set ATLAS_SHOW=1 to print the table.
 */
describe('signed receipt → outcome report → inbox → database → single-service response', () => {
  it('counts the report with a valid receipt as verified, every other case apart with its reason', async () => {
    const t = tempDir();
    const clock = testClock('2026-11-25T12:00:00Z');
    const fleet = await startFleet({ clock, signedReceipts: true, size: 0 });
    const agent = fleetAgent();
    const sellers = SIGNED_RECEIPT_CASES.map((c, i) => ({ c, id: `cand_rcpt${i}`, e: fleet.endpoint(`receipt-${c}`) }));
    const ctx = makeContext(t.dir, { clock, config: parseConfig(fleetConfig(fleet)) });
    // No reviewed listings: the cycle below tracks the receipt sellers only (no traffic leaves loopback).
    ctx.paths.listings = join(t.dir, 'listings');
    mkdirSync(ctx.paths.listings, { recursive: true });
    const store = await openTestStore(t.dir, clock());
    try {
      await seedServices(
        store,
        sellers.map((s) => ({ id: s.id, ops: [{ url: s.e.url, rule: 'x402-mainnet/2' as const }] })),
      );
      // The probe's own unpaid request: the only way Atlas learns a payee address.
      expect((await runProbe(ctx, store, { timeoutMs: 3000 })).counts.probed).toBe(sellers.length);
      await publish(ctx, store, {});
    } finally {
      store.close();
    }

    const server = await startServer(ctx, { port: 0, host: '127.0.0.1', replicaId: 'e2e', watchIntervalMs: 3_600_000 });
    try {
      const call = async (method: string, path: string, body?: unknown, key?: string) => {
        const res = await fetch(`${server.url}${path}`, {
          method,
          headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        return { status: res.status, body: (await res.json()) as any };
      };
      const keyOf = async (label: string) => (await call('POST', '/api/v1/keys', { label })).body.key as string;
      const key = await keyOf('agent-1');
      let validReceipt: unknown;
      const sent: Array<{ report: Record<string, unknown>; key: string }> = [];
      for (const s of sellers) {
        clock.advance(60_000);
        // The paid call (the simulator settles any payment header) and its settlement response.
        const paid = await request(s.e.url, { dispatcher: agent, headers: { 'payment-signature': 'eyJ4NDAyVmVyc2lvbiI6Mn0=' } });
        await paid.body.text();
        const settlement = decodePaymentResponseHeader(String(paid.headers['payment-response'])) as unknown as {
          extensions?: { 'offer-receipt'?: { info: { receipt: unknown } } };
        };
        const receipt = settlement.extensions?.['offer-receipt']?.info.receipt;
        if (s.c === 'valid') validReceipt = receipt;
        const report = { outcome: 'success', idempotency_key: `paid-${s.c}`, service_id: s.id, ...(receipt ? { receipt } : {}) };
        const r = await call('POST', '/api/v1/outcomes', report, key);
        expect(r.status, JSON.stringify(r.body)).toBe(201);
        // Serve never verifies: a receipt is pending until a publish carries its verdict.
        expect(OutcomeReceipt.parse(r.body).receipt_verification).toEqual(
          receipt ? { rule: 'outcome-receipt/1', state: 'pending', reason: null, checked_at: null } : null,
        );
        sent.push({ report, key });
      }
      // Another agent re-sends the valid seller's receipt: the same signature, a later report.
      clock.advance(60_000);
      const other = await keyOf('agent-2');
      const reused = { outcome: 'failure', idempotency_key: 'reused', service_id: sellers[0]!.id, receipt: validReceipt };
      expect((await call('POST', '/api/v1/outcomes', reused, other)).status).toBe(201);
      sent.push({ report: reused, key: other });

      clock.advance(2 * 60_000);
      const ingest = await runCli(['--data', t.dir, '--now', clock().toISOString(), 'ingest', 'inbox'], {
        timeoutMs: 120_000,
        env: { ATLAS_SECRET: ctx.secret },
      });
      expect(ingest.code, ingest.stderr).toBe(0);
      expect(ingest.stderr + ingest.stdout).toContain('receipts_verified=2/7');
      if (process.env.ATLAS_SHOW) console.log(`\n$ atlas ingest inbox\n${ingest.stderr}${ingest.stdout}`);
      // The cycle: probe, compute, moderation, publish (and its own verify of a sample).
      const cycle = await withStore(ctx.paths.db, (s) => runCycle(ctx, s, { skipRegistries: true, snapshot: false }));
      for (const name of ['moderate', 'publish']) expect(cycle.steps.find((x) => x.step === name)?.status, name).toBe('ok');
      const reasons = await withStore(ctx.paths.db, (s) =>
        s.all<{
          report_id: string;
          service_id: string;
          idempotency_key: string;
          state: string;
          reason: string | null;
          detail: string | null;
        }>(
          `SELECT o.id AS report_id, o.service_id, o.idempotency_key, c.state, c.reason, c.detail
           FROM outcomes o JOIN outcome_receipt_checks c ON c.report_id = o.id ORDER BY o.received_at`,
        ),
      );
      await server.deps.site.reload();
      // `atlas verify` recomputes the published counts and every receipt verdict from the raw rows.
      const verify = await runCli(['--data', t.dir, 'verify'], { timeoutMs: 120_000 });
      expect(verify.code, verify.stdout + verify.stderr).toBe(0);
      expect(verify.stdout).toMatch(
        /^ok: 7 service\(s\) and \d+ report\(s\) of generation .*, with 7 receipt verdict\(s\), match the database$/m,
      );
      if (process.env.ATLAS_SHOW) console.log(`$ atlas verify\n${verify.stdout}`);

      const rows: string[] = [];
      const verifiedBy: Record<string, number> = {};
      for (const s of sellers) {
        const detail = ServiceDetail.parse((await call('GET', `/api/v1/services/${s.id}`)).body);
        const b = detail.outcome_reports_by_receipt;
        const count = (st: keyof typeof b) =>
          b[st].success.accepted + b[st].success.pending + b[st].failure.accepted + b[st].failure.pending;
        verifiedBy[s.c] = count('verified');
        const why = reasons
          .filter((r) => r.service_id === s.id)
          .map((r) => `${r.idempotency_key}=${r.reason ?? r.state}${r.detail ? `(${r.detail})` : ''}`);
        rows.push(
          `${s.c.padEnd(18)} ${s.id.padEnd(11)} verified=${count('verified')} not_verified=${count('not_verified')} no_receipt=${count('no_receipt')}  ${why.join(' ') || '-'}`,
        );
      }
      if (process.env.ATLAS_SHOW) console.log(`\n${rows.join('\n')}\n`);
      expect(verifiedBy).toEqual({
        valid: 1,
        'valid-jws': 1,
        'bad-signature': 0,
        'wrong-signer': 0,
        'resource-mismatch': 0,
        stale: 0,
        'no-receipt': 0,
      });
      expect(Object.fromEntries(reasons.map((r) => [r.idempotency_key, r.reason ?? r.state]))).toEqual({
        'paid-valid': 'verified',
        'paid-valid-jws': 'verified',
        'paid-bad-signature': 'signature_invalid',
        'paid-wrong-signer': 'signer_not_payee',
        'paid-resource-mismatch': 'resource_mismatch',
        'paid-stale': 'issued_outside_window',
        reused: 'receipt_reused',
      });
      // Each sender reads its receipt's verdict back by sending the report again (200, the first report).
      const readBack: Record<string, string | null> = {};
      for (const { report, key: k } of sent) {
        const r = await call('POST', '/api/v1/outcomes', report, k);
        expect(r.status).toBe(200);
        const v = OutcomeReceipt.parse(r.body).receipt_verification;
        readBack[String(report.idempotency_key)] = v && (v.reason ?? v.state);
        if (v) expect(v.checked_at).not.toBeNull();
      }
      expect(readBack).toEqual({
        ...Object.fromEntries(reasons.map((r) => [r.idempotency_key, r.reason ?? r.state])),
        'paid-no-receipt': null,
      });
      // The valid seller: one verified success, one failure that stays a claim (reused receipt).
      const valid = ServiceDetail.parse((await call('GET', `/api/v1/services/${sellers[0]!.id}`)).body);
      if (process.env.ATLAS_SHOW) {
        const b = valid.outcome_reports_by_receipt;
        console.log(
          [
            `$ GET ${server.url}/api/v1/services/${sellers[0]!.id}`,
            `outcome_reports: ${JSON.stringify(valid.outcome_reports)}`,
            ...Object.entries(b).map(([k, v]) => `outcome_reports_by_receipt.${k}: ${JSON.stringify(v)}`),
          ].join('\n'),
        );
      }
      expect(valid.outcome_reports_by_receipt.verified.success).toEqual({ accepted: 1, pending: 0, rejected: 0 });
      expect(valid.outcome_reports_by_receipt.not_verified.failure).toEqual({ accepted: 1, pending: 0, rejected: 0 });
      expect(valid.outcome_reports.success.accepted + valid.outcome_reports.failure.accepted).toBe(2);
      const none = ServiceDetail.parse((await call('GET', `/api/v1/services/${sellers[6]!.id}`)).body);
      expect(none.outcome_reports_by_receipt.no_receipt.success).toEqual({ accepted: 1, pending: 0, rejected: 0 });
    } finally {
      await server.close();
      await fleet.close();
      await agent.close();
      t.cleanup();
    }
  }, 300_000);
});
