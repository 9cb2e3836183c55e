import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCycle } from '../../pipeline/cycle/index.ts';
import { withStore } from '../../pipeline/store/index.ts';
import { publish } from '../../pipeline/publish/index.ts';
import { OutcomeReceipt, ServiceDetail } from '../../site/contract/index.ts';
import { startServer } from '../../serve/index.ts';
import { runCli } from '../helpers/cli.ts';
import { makeContext, openTestStore, tempDir, testClock } from '../helpers/context.ts';

/**
 * End to end over real sockets and processes: POST outcome reports to `atlas serve` on 127.0.0.1 →
 * `atlas ingest inbox` (a spawned CLI) → `atlas cycle` (moderation right after the inbox, then
 * publish) → the server loads the new generation → the single-service response counts the reports
 * per outcome and state, and the receipt of a repeated report says its decision and reason.
 */
describe('outcome report → inbox → cycle moderation → publish → serve', () => {
  it('shows moderated counts per service and the decision in the duplicate receipt', async () => {
    const t = tempDir();
    const clock = testClock('2026-11-25T12:00:00Z');
    const ctx = makeContext(t.dir, { clock });
    ctx.paths.listings = join(t.dir, 'listings');
    mkdirSync(ctx.paths.listings, { recursive: true });
    const store = await openTestStore(t.dir, clock());
    try {
      // One tracked service with nothing to probe (its one operation is disabled: no traffic leaves loopback).
      await store.run(`INSERT INTO services (id, tier, type, name, name_source, host, url, method, monitoring_since, created_at, updated_at)
        VALUES ('svc_a', 'reviewed', 'api_endpoint', 'A', 'atlas', 'a.example', 'https://a.example/', 'GET',
          TIMESTAMP '2026-11-01 00:00:00', TIMESTAMP '2026-11-01 00:00:00', TIMESTAMP '2026-11-01 00:00:00')`);
      await store.run(`INSERT INTO operations (service_id, id, kind, is_primary, url, method, expected_statuses, pass_rule, interval_hours, enabled)
        VALUES ('svc_a', 'primary', 'call', true, 'https://a.example/', 'GET', [402], 'reviewed/1', 1, false)`);
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
      const key = (await call('POST', '/api/v1/keys', { label: 'e2e' })).body.key as string;
      const referral = (await call('GET', '/api/v1/services/svc_a', undefined, key)).body.referral_id as string;
      expect(referral).toMatch(/^ref1\./);

      const reports = {
        viaReferral: { outcome: 'success', idempotency_key: 'k1', referral_id: referral },
        repeat: { outcome: 'success', idempotency_key: 'k2', service_id: 'svc_a' }, // same key, service, outcome: a duplicate
        noService: { outcome: 'failure', idempotency_key: 'k3' },
      };
      for (const body of Object.values(reports)) {
        clock.advance(60_000); // one a minute: the repeat is the later one
        const r = await call('POST', '/api/v1/outcomes', body, key);
        expect(r.status).toBe(201);
        expect(OutcomeReceipt.parse(r.body)).toMatchObject({ status: 'pending_moderation', moderation_reason: null, moderated_at: null });
      }
      // Before any moderation, a repeat says pending too.
      expect((await call('POST', '/api/v1/outcomes', reports.repeat, key)).body).toMatchObject({
        status: 'pending_moderation',
        duplicate: true,
      });

      clock.advance(2 * 60_000);
      const ingest = await runCli(['--data', t.dir, '--now', clock().toISOString(), 'ingest', 'inbox'], { timeoutMs: 120_000 });
      expect(ingest.code, ingest.stderr).toBe(0);
      const cycle = await withStore(ctx.paths.db, (s) => runCycle(ctx, s, { skipRegistries: true, snapshot: false }));
      const step = (name: string) => cycle.steps.find((s) => s.step === name);
      expect(step('moderate')).toMatchObject({
        status: 'ok',
        detail: { pending: 3, accepted: 1, rejected: 2, by_reason: { duplicate: 1, no_service: 1 } },
      });
      expect(step('publish')?.status).toBe('ok');
      // The server follows `current` (its watcher may have loaded the generation already).
      await server.deps.site.reload();
      expect(server.deps.site.peek()?.generation).toBe((step('publish')!.detail as { generation: string }).generation);

      const detail = ServiceDetail.parse((await call('GET', '/api/v1/services/svc_a')).body);
      expect(detail.outcome_reports).toEqual({
        success: { accepted: 1, pending: 0, rejected: 1 },
        failure: { accepted: 0, pending: 0, rejected: 0 },
        unknown: { accepted: 0, pending: 0, rejected: 0 },
      });
      const again = async (body: unknown) => {
        const r = await call('POST', '/api/v1/outcomes', body, key);
        expect(r.status).toBe(200);
        return OutcomeReceipt.parse(r.body);
      };
      const decidedAt = new Date('2026-11-25T12:05:00Z').toISOString();
      expect(await again(reports.viaReferral)).toMatchObject({ status: 'accepted', moderation_reason: null, moderated_at: decidedAt });
      expect(await again(reports.repeat)).toMatchObject({ status: 'rejected', moderation_reason: 'duplicate', moderated_at: decidedAt });
      expect(await again(reports.noService)).toMatchObject({ status: 'rejected', moderation_reason: 'no_service', duplicate: true });
      // A report received after the publish is pending.
      const fresh = await call('POST', '/api/v1/outcomes', { outcome: 'unknown', idempotency_key: 'k4', service_id: 'svc_a' }, key);
      expect(fresh).toMatchObject({ status: 201, body: { status: 'pending_moderation' } });
    } finally {
      await server.close();
      t.cleanup();
    }
  }, 300_000);
});
