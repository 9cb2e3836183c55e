import { z } from 'zod';

/**
 * Wire shapes of the weekly report (spec 2.5: `/api/v1/reports`, `/api/v1/reports/{id}`).
 * The frozen `report` body is stored once in `reports.body` and served byte-for-byte; corrections are
 * returned alongside it and never change it. These schemas are exported for site/contract (one
 * contract, many views): publish validates what it writes with them.
 */
const count = z.number().int().min(0);
const rate = z.number().min(0).max(1).nullable();

export const CHECK_KINDS = ['reviewed', 'x402', 'mcp'] as const;
export const SERVICE_TIERS = ['reviewed', 'discovered'] as const;
export const SERVICE_TYPES = ['api_endpoint', 'task_marketplace', 'mcp_server'] as const;
export const INTERVAL_NAMES_REPORT = ['hourly', 'daily', 'weekly', 'monthly'] as const;
export const TERMS_CHANGE_KINDS = ['price', 'network_added', 'network_removed', 'asset', 'pay_to', 'scheme', 'version', 'other'] as const;
export const OUTCOME_VALUES = ['success', 'failure', 'unknown'] as const;
export const FEEDBACK_KINDS = ['missing_service', 'missing_metric', 'feature_request', 'wrong_data', 'unclear_docs', 'other'] as const;

const record = <K extends readonly [string, ...string[]]>(keys: K) =>
  z.object(Object.fromEntries(keys.map((k) => [k, count])) as { [P in K[number]]: typeof count });

export const KindChecksSchema = z.object({
  ran: count.describe('scheduled checks of this kind that ran for slots in the week'),
  passed: count.describe('of those, checks that passed their pass rule'),
  missed: count.describe('scheduled checks that did not run (expected minus ran per operation, never below 0); never counted as failures'),
  pass_rate: rate.describe('passed divided by ran; null when none ran'),
});

export const ReportBodySchema = z.object({
  week: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .describe('the Monday (UTC) that starts the week'),
  week_start: z.string().describe('Monday 00:00 UTC'),
  week_end: z.string().describe('next Monday 00:00 UTC (exclusive)'),
  figures_until: z
    .string()
    .describe('the figures count events before this time: week_end for a frozen report, the computation time for current'),
  provisional: z.boolean().describe('true for the week-to-date figures of `current`'),
  services: z.object({
    tracked: count.describe('services tracked by Atlas at figures_until (created before it)'),
    by_tier: record(SERVICE_TIERS),
    by_type: record(SERVICE_TYPES),
    by_tier_type: z.object({ reviewed: record(SERVICE_TYPES), discovered: record(SERVICE_TYPES) }),
  }),
  directory: z.object({
    size: count.describe('services in the directory at figures_until (latest evaluation of each service before it)'),
    evaluated: count.describe('services with at least one directory evaluation before figures_until'),
  }),
  checks: z.object({
    total: KindChecksSchema,
    by_kind: z.object({ reviewed: KindChecksSchema, x402: KindChecksSchema, mcp: KindChecksSchema }),
  }),
  listing: z.object({
    added: count.describe('services Atlas started tracking in the week'),
    added_by_tier: record(SERVICE_TIERS),
    delisted: count.describe('registry delisting events in the week'),
    relisted: count.describe('registry relisting events in the week (listed again after a delisting)'),
  }),
  interval_changes: z.object({
    total: count.describe('check interval changes in the week (rule schedule/1), first intervals excluded'),
    by_new_interval: record(INTERVAL_NAMES_REPORT),
  }),
  payment_terms: z.object({
    changes: count.describe('observed x402 payment-term changes in the week (a valid request differing from the previous valid one)'),
    services: count.describe('services with at least one change'),
    by_kind: record(TERMS_CHANGE_KINDS).describe('a change can have several kinds'),
  }),
  documentation: z.object({
    changes: count.describe('documentation changes detected in the week'),
    needs_review: count.describe('of those, changes touching what the listing states'),
    services: count.describe('reviewed services with at least one change'),
  }),
  outcome_reports: z.object({
    note: z.string(),
    received: count,
    by_outcome: record(OUTCOME_VALUES),
    by_moderation: z.record(z.string(), count),
  }),
  feedback: z.object({
    received: count,
    by_kind: record(FEEDBACK_KINDS),
  }),
  notes: z.record(z.string(), z.string()).describe('explanatory texts keyed by topic, frozen with the figures'),
});
export type ReportBody = z.infer<typeof ReportBodySchema>;

export const CorrectionSchema = z.object({
  seq: z.number().int().min(1),
  corrected_at: z.string(),
  note: z.string().min(1).max(1000),
  figures: z
    .record(z.string(), z.union([z.number(), z.string(), z.boolean(), z.null()]))
    .describe('path in the report body → corrected value'),
});
export type Correction = z.infer<typeof CorrectionSchema>;

/**
 * The response envelopes (`Report`, `ReportList`) are the contract's (site/contract/reports.ts);
 * their `report` member is this body.
 */
export type { Report as ReportResponse, ReportList as ReportIndex } from '../../site/contract/reports.ts';
