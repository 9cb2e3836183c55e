import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keyedHash } from '../../../pipeline/core/secret.ts';
import { ingestInbox } from '../../../pipeline/inbox/load.ts';
import { runModeration } from '../../../pipeline/moderation/index.ts';
import { recheckReceipts } from '../../../pipeline/verify/receipts.ts';
import { publish } from '../../../pipeline/publish/index.ts';
import { computeWeekFigures } from '../../../pipeline/reports/index.ts';
import type { OutcomeRecord } from '../../../site/contract/inbox-records.ts';
import { ServiceDetailFile } from '../../../site/contract/index.ts';
import { makeContext, openTestStore, tempDir } from '../../helpers/context.ts';
import { addressOf, signEip712Receipt, signJwsReceipt, tamperJws } from '../../helpers/receipts.ts';
import { seedRaw } from '../publish/seed.ts';

/**
 * Through the real tables: reports with receipts in the server's log → `atlas ingest inbox`
 * (verdicts, migration 063) → moderation → publish (outcome_reports_by_receipt) and the week's
 * by_receipt. Receipts are signed independently of the verifier (test/helpers/receipts.ts).
 */
const NOW = new Date('2026-11-25T12:00:00Z');
const min = (m: number) => new Date(NOW.getTime() + m * 60_000);
const SVC = 'cand_x0000001';
const SVC_URL = 'https://host1.example/api/1';

describe('receipts through ingest → moderate → publish', () => {
  it('verifies each receipt once, stores the reason, and counts verified and unverified reports apart', async () => {
    const { dir, cleanup } = tempDir();
    const store = await openTestStore(dir, NOW);
    try {
      await seedRaw(store, NOW, 3, 3);
      const ctx = makeContext(dir, { now: NOW.toISOString() });
      // The service's observed receiving address is the seller key's address (hashed as the probe does).
      const payee = keyedHash(ctx.secret, 'pay_to', addressOf('seller').toLowerCase());
      await store.run(`UPDATE payment_terms SET pay_to_hashes = [$1] WHERE service_id = $2`, [payee, SVC]);

      const issued = Math.floor(min(-31).getTime() / 1000);
      const payload = {
        version: 1,
        network: 'eip155:8453',
        resourceUrl: SVC_URL,
        payer: '0x857b06519E91e3A54538791bDbb0E22373e36b66',
        issuedAt: issued,
      };
      const valid = await signEip712Receipt('seller', payload);
      const validJws = await signJwsReceipt('seller', { ...payload, issuedAt: issued + 1 });
      const rec = (id: string, over: Partial<OutcomeRecord>): OutcomeRecord => ({
        id,
        key_id: `key_${id}`,
        idempotency_key: id,
        service_id: SVC,
        referral_id: null,
        outcome: 'success',
        failure_kind: null,
        operation: null,
        task_category: null,
        reported_at: null,
        received_at: min(-30).toISOString(),
        moderation: 'pending',
        ...over,
      });
      const reports: OutcomeRecord[] = [
        rec('out_valid', { receipt: valid }),
        rec('out_jws', { receipt: validJws, outcome: 'failure', failure_kind: 'bad_output' }),
        rec('out_badsig', { receipt: { ...validJws, signature: tamperJws(validJws.signature) } }),
        rec('out_wrongsigner', { receipt: await signEip712Receipt('someone-else', payload) }),
        rec('out_resource', { receipt: await signEip712Receipt('seller', { ...payload, resourceUrl: 'https://host1.example/api/other' }) }),
        rec('out_old', { receipt: await signEip712Receipt('seller', { ...payload, issuedAt: issued - 2 * 86_400 }) }),
        rec('out_reused', { receipt: valid, received_at: min(-29).toISOString() }),
        rec('out_didweb', { receipt: await signJwsReceipt('seller', payload, 'did:web:host1.example#key-1') }),
        rec('out_none', {}),
        // A second report of the same key 5 minutes later: moderation rejects it as a duplicate, whatever its receipt.
        rec('out_dup', {
          key_id: 'key_out_valid',
          receipt: await signEip712Receipt('seller', { ...payload, issuedAt: issued + 2 }),
          received_at: min(-25).toISOString(),
        }),
      ];
      mkdirSync(ctx.paths.inbox, { recursive: true });
      appendFileSync(join(ctx.paths.inbox, 'outcomes-test.jsonl'), reports.map((r) => `${JSON.stringify(r)}\n`).join(''));

      const loaded = await ingestInbox(ctx, store);
      expect(loaded.outcomes.inserted).toBe(10);
      expect(loaded.receipts).toEqual({ checked: 9, verified: 3 });
      const verdicts = await store.all<{ report_id: string; state: string; reason: string | null; detail: string | null }>(
        'SELECT report_id, state, reason, detail FROM outcome_receipt_checks ORDER BY report_id',
      );
      expect(Object.fromEntries(verdicts.map((v) => [v.report_id, v.reason ?? v.state]))).toEqual({
        out_valid: 'verified',
        out_jws: 'verified',
        out_dup: 'verified',
        out_badsig: 'signature_invalid',
        out_wrongsigner: 'signer_not_payee',
        out_resource: 'resource_mismatch',
        out_old: 'issued_outside_window',
        out_reused: 'receipt_reused',
        out_didweb: 'signature_not_checked',
      });
      expect(verdicts.find((v) => v.report_id === 'out_didweb')?.detail).toBe('did_web_not_resolved');
      // `atlas verify` makes every verdict again from the raw receipts (no secret): all agree; a
      // verdict altered in the database is a mismatch.
      expect(await recheckReceipts(store)).toEqual({ checked: 9, mismatches: [] });
      await store.run(
        `UPDATE outcome_receipt_checks SET state = 'verified', reason = NULL, detail = NULL WHERE report_id = 'out_wrongsigner'`,
      );
      expect((await recheckReceipts(store)).mismatches).toEqual([
        { id: 'receipts/out_wrongsigner', field: 'state', published: 'verified', recomputed: 'not_verified' },
        { id: 'receipts/out_wrongsigner', field: 'reason', published: null, recomputed: 'signer_not_payee' },
        { id: 'receipts/out_wrongsigner', field: 'detail', published: null, recomputed: 'key_not_payee' },
      ]);
      await store.run(
        `UPDATE outcome_receipt_checks SET state = 'not_verified', reason = 'signer_not_payee', detail = 'key_not_payee' WHERE report_id = 'out_wrongsigner'`,
      );
      // Loading again decides nothing again.
      expect((await ingestInbox(makeContext(dir, { now: min(5).toISOString() }), store)).receipts).toEqual({ checked: 0, verified: 0 });

      await runModeration(ctx, store);
      const r = await publish(makeContext(dir, { now: min(10).toISOString() }), store, {});
      const detail = ServiceDetailFile.parse(JSON.parse(readFileSync(join(r.dir, 'api', 'v1', 'services', `${SVC}.json`), 'utf8')));
      const zero = { accepted: 0, pending: 0, rejected: 0 };
      expect(detail.outcome_reports_by_receipt).toEqual({
        verified: { success: { accepted: 1, pending: 0, rejected: 1 }, failure: { accepted: 1, pending: 0, rejected: 0 }, unknown: zero },
        not_verified: { success: { accepted: 6, pending: 0, rejected: 0 }, failure: zero, unknown: zero },
        no_receipt: { success: { accepted: 1, pending: 0, rejected: 0 }, failure: zero, unknown: zero },
      });
      // The total keeps counting every report, as before receipts.
      expect(detail.outcome_reports.success).toEqual({ accepted: 8, pending: 0, rejected: 1 });

      const week = await computeWeekFigures(store, new Date('2026-11-23T00:00:00Z'), min(10));
      expect(week.outcome_reports.by_receipt).toEqual({
        verified: {
          received: 3,
          by_outcome: { success: 2, failure: 1, unknown: 0 },
          by_moderation: { pending: 0, accepted: 2, rejected: 1 },
        },
        not_verified: {
          received: 6,
          by_outcome: { success: 6, failure: 0, unknown: 0 },
          by_moderation: { pending: 0, accepted: 6, rejected: 0 },
        },
        no_receipt: {
          received: 1,
          by_outcome: { success: 1, failure: 0, unknown: 0 },
          by_moderation: { pending: 0, accepted: 1, rejected: 0 },
        },
      });
      // As of an instant before the verdicts were made, reports with a receipt are not verified yet.
      const before = await store.all<{ receipt_state: string; n: number }>(
        `SELECT receipt_state, count(*)::INTEGER AS n FROM atlas_outcome_state_as_of($1::TIMESTAMP) GROUP BY 1 ORDER BY 1`,
        [min(-1).toISOString()],
      );
      expect(before).toEqual([
        { receipt_state: 'no_receipt', n: 1 },
        { receipt_state: 'not_verified', n: 9 },
      ]);
    } finally {
      store.close();
      cleanup();
    }
  }, 60_000);
});
