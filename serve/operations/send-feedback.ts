import { API_STATUS } from '../../site/contract/common.ts';
import type { FeedbackRecord } from '../../site/contract/inbox-records.ts';
import { FeedbackRequestSchema } from '../../site/contract/requests.ts';
import type { FeedbackReceipt } from '../../site/contract/writes.ts';
import { addressHash } from '../auth/address.ts';
import type { AppDeps } from '../deps.ts';
import { parseBody } from './body.ts';
import { dailyLimit, dailyLimitReached } from './limits.ts';

/**
 * POST /api/v1/feedback and the MCP send_feedback tool (docs/design.md, keys and request limits): kind required, note ≤ 500,
 * about ≤ 120, contact ≤ 200; no key needed; 10 per address per UTC day (429 beyond).
 */
export async function sendFeedback(deps: AppDeps, body: unknown, address: string): Promise<FeedbackReceipt> {
  const req = parseBody(FeedbackRequestSchema, body, 'feedback');
  const who = addressHash(deps.secret, address);
  const now = deps.clock();
  const rec: FeedbackRecord = {
    id: `fb_${deps.random(10).toString('hex')}`,
    kind: req.kind,
    note: req.note ?? null,
    about: req.about ?? null,
    contact: req.contact ?? null,
    received_at: now.toISOString(),
    address_hash: who,
  };
  const limit = dailyLimit(deps, 'feedback');
  if (!(await deps.writes.addFeedback(rec, limit))) throw dailyLimitReached(deps, limit ?? 0, 'feedback messages');
  return {
    api_status: API_STATUS,
    id: rec.id,
    received_at: rec.received_at,
    kind: req.kind,
    message: req.contact
      ? 'Thank you. Feedback received; we reply only when needed, at the contact given.'
      : 'Thank you. Feedback received.',
  };
}
