import { API_STATUS } from '../../site/contract/common.ts';
import { AtlasError } from '../../pipeline/core/errors.ts';
import type { OutcomeRecord } from '../../site/contract/inbox-records.ts';
import { OutcomeReportSchema } from '../../site/contract/requests.ts';
import { OUTCOME_RECEIPT_STATUS } from '../../site/contract/common.ts';
import type { ModerationDecision } from '../../site/contract/moderation.ts';
import { RECEIPT_RULE, type ReceiptVerdictEntry, type ReceiptVerification } from '../../site/contract/receipt-verdict.ts';
import type { OutcomeReceipt } from '../../site/contract/writes.ts';
import { hashKey } from '../auth/keys.ts';
import { verifyReferral } from '../auth/referral.ts';
import type { AppDeps } from '../deps.ts';
import { parseBody } from './body.ts';

/** Reports dated further than this into the server's future are rejected. */
const FUTURE_SKEW_MS = 5 * 60_000;

const REFERRAL_PROBLEMS = {
  malformed: 'referral_id is not a referral id issued by this service',
  bad_signature: 'referral_id is not a referral id issued by this service',
  expired: 'referral_id has expired (referral ids are valid for 7 days)',
  not_yet_valid: 'referral_id is not valid yet',
} as const;

/** What the loaded generation publishes about a report (index/moderation.json); nothing for a first report. */
interface Published {
  decision?: ModerationDecision | undefined;
  verdict?: ReceiptVerdictEntry | undefined;
}

function published(deps: AppDeps, id: string): Published {
  const site = deps.site.peek();
  return { decision: site?.moderation.get(id), verdict: site?.receiptVerdicts.get(id) };
}

/** The verification of the report's receipt: null without one; pending until a verdict is published. */
function receiptVerification(rec: OutcomeRecord, verdict: ReceiptVerdictEntry | undefined): ReceiptVerification | null {
  if (!rec.receipt) return null;
  return { rule: RECEIPT_RULE, ...(verdict ?? { state: 'pending', reason: null, checked_at: null }) };
}

/**
 * The receipt. A first report is pending moderation (and its receipt pending verification); a
 * repeated one says what the loaded generation publishes for the first report (index/moderation.json):
 * its moderation decision and its receipt's verdict, else pending too.
 */
function receipt(rec: OutcomeRecord, duplicate: boolean, { decision, verdict }: Published): OutcomeReceipt {
  return {
    api_status: API_STATUS,
    id: rec.id,
    status: decision ? decision.state : OUTCOME_RECEIPT_STATUS,
    moderation_reason: decision?.reason ?? null,
    moderated_at: decision?.decided_at ?? null,
    received_at: rec.received_at,
    idempotency_key: rec.idempotency_key,
    service_id: rec.service_id,
    outcome: rec.outcome as OutcomeReceipt['outcome'],
    receipt_verification: receiptVerification(rec, verdict),
    duplicate,
    message: duplicate
      ? `Already received: this is the receipt of the first report with this idempotency_key${
          decision ? `, ${decision.state}${decision.reason ? ` (${decision.reason})` : ''} by moderation` : ', pending moderation'
        }${rec.receipt ? `; its receipt ${verdict ? `${verdict.state.replace('_', ' ')}${verdict.reason ? ` (${verdict.reason})` : ''}` : 'pending verification'}` : ''}.`
      : rec.receipt
        ? 'Report received with a receipt, pending moderation. The receipt is verified when the report is loaded into the database (signature, signer = an observed payee address of the service, resource, issue time); send the same idempotency_key again after the next publish to read the verdict in receipt_verification. Outcome reports never change measured evidence.'
        : 'Report received, pending moderation. Outcome reports are unverified and never change measured evidence.',
  };
}

/**
 * POST /api/v1/outcomes (docs/design.md, keys and outcome reports). Key required (401 without or with an unknown key).
 * Field rules (400): the schema's (enums, max lengths, date-time), plus
 * - failure_kind only with outcome failure or unknown;
 * - referral_id: signed by this service, at most 7 days old, issued to this same key, and naming
 *   the same service as service_id when both are given;
 * - service_id without a referral: a tracked service of the loaded generation;
 * - reported_at not more than 5 minutes in the server's future;
 * - receipt (optional): the x402 receipt object, shape and size only (X402Receipt, site/contract/outcome-receipt.ts).
 * 201 on the first report; 200 with the first report's receipt (duplicate: true) for a repeated
 * idempotency_key of the same key, whatever the new body says. Never touches evidence.
 */
export async function reportOutcome(
  deps: AppDeps,
  body: unknown,
  key: string | null | undefined,
): Promise<{ status: 200 | 201; body: OutcomeReceipt }> {
  if (!key)
    throw new AtlasError(
      'unauthorized',
      'an API key is required: send Authorization: Bearer <key> or X-API-Key: <key> (POST /api/v1/keys issues one)',
    );
  const keyId = await deps.writes.lookupKey(hashKey(key));
  if (!keyId) throw new AtlasError('unauthorized', 'unknown API key');
  const req = parseBody(OutcomeReportSchema, body, 'outcome report');

  const first = await deps.writes.findOutcome(keyId, req.idempotency_key);
  if (first) {
    return { status: 200, body: receipt(first, true, published(deps, first.id)) };
  }

  const now = deps.clock();
  if (req.failure_kind !== undefined && req.outcome === 'success') {
    throw new AtlasError('invalid_input', 'outcome report: failure_kind: only allowed with outcome failure or unknown');
  }
  if (req.reported_at !== undefined && Date.parse(req.reported_at) > now.getTime() + FUTURE_SKEW_MS) {
    throw new AtlasError('invalid_input', 'outcome report: reported_at: is in the future');
  }
  let serviceId = req.service_id ?? null;
  if (req.referral_id !== undefined) {
    const ref = verifyReferral(deps.secret, req.referral_id, now);
    if (!ref.ok) throw new AtlasError('invalid_input', `outcome report: referral_id: ${REFERRAL_PROBLEMS[ref.reason]}`);
    if (ref.keyId !== keyId) throw new AtlasError('invalid_input', 'outcome report: referral_id: was issued to another key');
    if (serviceId !== null && serviceId !== ref.serviceId) {
      throw new AtlasError('invalid_input', `outcome report: service_id: does not match the referral's service ${ref.serviceId}`);
    }
    serviceId = ref.serviceId;
  } else if (serviceId !== null) {
    const site = deps.site.peek();
    if (site && !site.byId.has(serviceId))
      throw new AtlasError('invalid_input', `outcome report: service_id: no tracked service ${serviceId}`);
  }

  const rec: OutcomeRecord = {
    id: `out_${deps.random(10).toString('hex')}`,
    key_id: keyId,
    idempotency_key: req.idempotency_key,
    service_id: serviceId,
    referral_id: req.referral_id ?? null,
    outcome: req.outcome,
    failure_kind: req.failure_kind ?? null,
    operation: req.operation ?? null,
    task_category: req.task_category ?? null,
    reported_at: req.reported_at ? new Date(req.reported_at).toISOString() : null,
    received_at: now.toISOString(),
    moderation: 'pending',
    // Stored raw, never verified here (serve imports no crypto): the pipeline verifies it.
    receipt: req.receipt ?? null,
  };
  const { record, duplicate } = await deps.writes.addOutcome(rec);
  return {
    status: duplicate ? 200 : 201,
    body: receipt(record, duplicate, duplicate ? published(deps, record.id) : {}),
  };
}
