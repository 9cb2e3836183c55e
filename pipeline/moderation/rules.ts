import { DAY_MS } from '../core/clock.ts';
import type { ReferralCheck } from '../core/referral.ts';
import { MODERATION_LIMITS, type ModerationReasonName } from '../../site/contract/moderation.ts';

/**
 * Rule moderation/1 (site/contract/moderation.ts MODERATION_RULE): data → decision, no I/O and no
 * clock. Each pending report is judged by these checks in order; the first that fails rejects it
 * with its reason, a report that passes them all is accepted:
 *
 * 1. service: the report names a service (`no_service`), Atlas tracks it (`unknown_service`), and
 *    tracked it at the report's time — reported_at when given, else received_at — i.e. the service's
 *    monitoring_since is not after that time (`not_tracked_at_report_time`);
 * 2. referral, when one is given: it verifies with the installation secret and was at most
 *    REFERRAL_VALID_DAYS old when the report was received (`referral_expired`; any other failure,
 *    or a referral issued to another key or naming another service, `referral_invalid`);
 * 3. duplicate: no earlier report of the same key about the same service with the same outcome was
 *    received within MODERATION_LIMITS.duplicateWindowMinutes before it (`duplicate`). "Earlier" is
 *    by received_at, then id; the earlier report is judged on its own;
 * 4. daily limit: among the key's reports received on the same UTC day, in order of received_at
 *    then id, it is at most the MODERATION_LIMITS.dailyReportsPerKey-th (`daily_limit`).
 *
 * Checks 3 and 4 count every received report of the key (whatever its own state), so the decision
 * of a report depends only on reports received before it and the rules give the same answer
 * however the reports are batched into runs.
 */
export interface ReportFacts {
  id: string;
  key_id: string;
  service_id: string | null;
  referral_id: string | null;
  outcome: string;
  received_at: Date;
  reported_at: Date | null;
}

export interface ModerationInputs {
  /** The reports to decide. */
  pending: readonly ReportFacts[];
  /**
   * Every report (decided or not, the pending ones included or not) of the same keys received from
   * the start of the UTC day of the earliest pending report (less the duplicate window) up to the
   * latest pending one: what checks 3 and 4 count.
   */
  neighbours: readonly ReportFacts[];
  /** Tracked services by id: when each started being monitored. */
  services: ReadonlyMap<string, { monitoringSince: Date }>;
  /** The referral check (pipeline/core/referral.ts verifyReferral with the installation secret). */
  checkReferral: (token: string, at: Date) => ReferralCheck;
}

export type RuleDecision =
  | { report_id: string; state: 'accepted'; reason: null }
  | { report_id: string; state: 'rejected'; reason: ModerationReasonName };

const DUPLICATE_WINDOW_MS = MODERATION_LIMITS.duplicateWindowMinutes * 60_000;

/** a before b: by received_at, then id. */
const before = (a: ReportFacts, b: ReportFacts) =>
  a.received_at.getTime() < b.received_at.getTime() || (a.received_at.getTime() === b.received_at.getTime() && a.id < b.id);

const utcDay = (t: Date) => Math.floor(t.getTime() / DAY_MS);

function serviceProblem(r: ReportFacts, services: ModerationInputs['services']): ModerationReasonName | null {
  if (r.service_id === null) return 'no_service';
  const s = services.get(r.service_id);
  if (!s) return 'unknown_service';
  const at = r.reported_at ?? r.received_at;
  return s.monitoringSince.getTime() > at.getTime() ? 'not_tracked_at_report_time' : null;
}

function referralProblem(r: ReportFacts, check: ModerationInputs['checkReferral']): ModerationReasonName | null {
  if (r.referral_id === null) return null;
  const ref = check(r.referral_id, r.received_at);
  if (!ref.ok) return ref.reason === 'expired' ? 'referral_expired' : 'referral_invalid';
  return ref.keyId !== r.key_id || ref.serviceId !== r.service_id ? 'referral_invalid' : null;
}

export function moderate(inputs: ModerationInputs): RuleDecision[] {
  // Every report once (a pending report may also be among the neighbours), by key, in order.
  const byKey = new Map<string, ReportFacts[]>();
  const seen = new Set<string>();
  for (const r of [...inputs.neighbours, ...inputs.pending]) {
    if (seen.has(r.id)) continue;
    seen.add(r.id);
    const list = byKey.get(r.key_id) ?? [];
    list.push(r);
    byKey.set(r.key_id, list);
  }
  // Each report's place in its key's list and its rank on its UTC day (1 = the day's first).
  const place = new Map<string, { list: ReportFacts[]; at: number; rankOfDay: number }>();
  for (const list of byKey.values()) {
    list.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
    let dayStart = 0;
    for (let i = 0; i < list.length; i++) {
      if (i > 0 && utcDay(list[i]!.received_at) !== utcDay(list[i - 1]!.received_at)) dayStart = i;
      place.set(list[i]!.id, { list, at: i, rankOfDay: i - dayStart + 1 });
    }
  }

  return inputs.pending.map((r): RuleDecision => {
    const reject = (reason: ModerationReasonName): RuleDecision => ({ report_id: r.id, state: 'rejected', reason });
    const service = serviceProblem(r, inputs.services);
    if (service) return reject(service);
    const referral = referralProblem(r, inputs.checkReferral);
    if (referral) return reject(referral);
    const { list, at, rankOfDay } = place.get(r.id)!;
    const t = r.received_at.getTime();
    for (let j = at - 1; j >= 0 && t - list[j]!.received_at.getTime() <= DUPLICATE_WINDOW_MS; j--) {
      if (list[j]!.service_id === r.service_id && list[j]!.outcome === r.outcome) return reject('duplicate');
    }
    if (rankOfDay > MODERATION_LIMITS.dailyReportsPerKey) return reject('daily_limit');
    return { report_id: r.id, state: 'accepted', reason: null };
  });
}
