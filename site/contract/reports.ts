import { z } from 'zod';
import {
  ApiStatus,
  CHECK_INTERVAL_NAMES,
  CHECK_KINDS,
  DateTime,
  Day,
  FEEDBACK_KINDS,
  OUTCOMES,
  SERVICE_TIERS,
  SERVICE_TYPES,
  TERMS_CHANGE_KINDS,
} from './common.ts';
import { MODERATION_STATES } from './moderation.ts';
import { RECEIPT_STATES } from './outcome-receipt.ts';
import { TERMS_DIMENSIONS } from './declared-terms.ts';

/** Longest correction note (`atlas report correct --note`). */
export const CORRECTION_NOTE_MAX = 1000;

/**
 * A correction published alongside a frozen report; it never changes the report's figures.
 * `figures` maps a dotted path of a figure in the report body to its corrected value (a JSON scalar).
 * pipeline/reports validates a new correction with this schema before storing it.
 */
export const ReportCorrection = z.strictObject({
  seq: z.number().int().positive(),
  corrected_at: DateTime,
  note: z.string().min(1).max(CORRECTION_NOTE_MAX),
  figures: z.record(z.string(), z.union([z.number(), z.string(), z.boolean(), z.null()])),
});
export type ReportCorrection = z.infer<typeof ReportCorrection>;

const count = z.number().int().min(0);
const rate = z.number().min(0).max(1).nullable();

/**
 * Counts keyed by each value of a closed set. Not strict: a frozen body keeps the keys it was frozen
 * with, and later reports may count values added to the set since.
 */
const record = <K extends readonly [string, ...string[]]>(keys: K) =>
  z.object(Object.fromEntries(keys.map((k) => [k, count])) as { [P in K[number]]: typeof count });

/** Checks of one kind (or all kinds) for slots in the week. */
export const ReportKindChecks = z.object({
  ran: count.describe('scheduled checks of this kind that ran for slots in the week'),
  passed: count.describe('of those, checks that passed their pass rule'),
  missed: count.describe(
    'scheduled checks that did not run (expected while the operation was active minus those that ran then, per operation, never below 0); never counted as failures',
  ),
  pass_rate: rate.describe('passed divided by ran; null when none ran'),
});
export type ReportKindChecks = z.infer<typeof ReportKindChecks>;

/**
 * The body of a weekly report (`Report.report`), computed by pipeline/reports. It is stored once when
 * the week is frozen and served byte-for-byte; corrections are returned alongside and never change it.
 * Objects are not strict, for the same reason `Report.report` is an open object: a frozen snapshot is
 * served as frozen even if later reports gain members. Members are documented by their `.describe()`
 * texts and report-field-docs.ts.
 */
export const ReportBody = z.object({
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
    total: ReportKindChecks,
    by_kind: z.object(
      Object.fromEntries(CHECK_KINDS.map((k) => [k, ReportKindChecks])) as {
        [P in (typeof CHECK_KINDS)[number]]: typeof ReportKindChecks;
      },
    ),
  }),
  listing: z.object({
    added: count.describe('services Atlas started tracking in the week'),
    added_by_tier: record(SERVICE_TIERS),
    delisted: count.describe('registry delisting events in the week'),
    relisted: count.describe('registry relisting events in the week (listed again after a delisting)'),
  }),
  catalogs: z.object({
    listed: count.describe(
      'catalog listings in the week: a catalog (configured registry source) started listing a discovered service, first or again (macro atlas_catalog_events)',
    ),
    relisted: count.describe('of those, listings again after the same catalog had dropped the service'),
    unlisted: count.describe(
      'catalog unlistings in the week: a catalog stopped listing a service (missing from a complete sweep, or withdrawn by status)',
    ),
    services: count.describe('services with at least one catalog listing or unlisting in the week'),
  }),
  interval_changes: z.object({
    total: count.describe('check interval changes in the week (rule schedule/1), first intervals excluded'),
    by_new_interval: record(CHECK_INTERVAL_NAMES),
  }),
  payment_terms: z.object({
    changes: count.describe('observed x402 payment-term changes in the week (a valid request differing from the previous valid one)'),
    services: count.describe('services with at least one change'),
    by_kind: record(TERMS_CHANGE_KINDS).describe('a change can have several kinds'),
  }),
  /** Absent from reports frozen before declared-terms/1 was counted (issue 27). */
  declared_terms: z
    .object({
      began: count.describe('declared-against-observed differences (rule declared-terms/1) that began in the week'),
      ended: count.describe(
        'differences that ended in the week (the declaration and the live 402 agreed again, or the source stopped declaring)',
      ),
      services: count.describe('services with a difference that began in the week'),
      by_dimension: record(TERMS_DIMENSIONS).describe('differences that began in the week, by dimension'),
    })
    .optional(),
  /** Absent in reports frozen before signed offers were recorded (migration 062). */
  signed_offers: z
    .object({
      terms_differ_events: count.describe('terms-differ events of signed offers (offer-receipt) in the week'),
      services: count.describe('services with at least one such event'),
    })
    .optional(),
  documentation: z.object({
    changes: count.describe('documentation changes detected in the week'),
    needs_review: count.describe('of those, changes touching what the listing states'),
    services: count.describe('reviewed services with at least one change'),
  }),
  outcome_reports: z.object({
    note: z.string(),
    received: count,
    by_outcome: record(OUTCOMES),
    by_moderation: z.record(z.string(), count),
    by_receipt: z.object(
      Object.fromEntries(
        RECEIPT_STATES.map((s) => [
          s,
          z.object({ received: count, by_outcome: record(OUTCOMES), by_moderation: record(MODERATION_STATES) }),
        ]),
      ) as Record<
        (typeof RECEIPT_STATES)[number],
        z.ZodObject<{
          received: typeof count;
          by_outcome: ReturnType<typeof record<typeof OUTCOMES>>;
          by_moderation: ReturnType<typeof record<typeof MODERATION_STATES>>;
        }>
      >,
    ),
  }),
  feedback: z.object({
    received: count,
    by_kind: record(FEEDBACK_KINDS),
  }),
  notes: z.record(z.string(), z.string()).describe('explanatory texts keyed by topic, frozen with the figures'),
});
export type ReportBody = z.infer<typeof ReportBody>;

/** An entry of GET /api/v1/reports (newest first). */
export const ReportListItem = z.strictObject({
  id: Day,
  week_start: Day,
  week_end: Day,
  frozen_at: DateTime,
  corrections: z.number().int().nonnegative(),
  links: z.strictObject({ api: z.string() }),
});
export type ReportListItem = z.infer<typeof ReportListItem>;

export const ReportList = z.strictObject({
  api_status: ApiStatus,
  generated_at: DateTime,
  items: z.array(ReportListItem),
  current: z.strictObject({ api: z.string() }).nullable(),
});
export type ReportList = z.infer<typeof ReportList>;

/**
 * GET /api/v1/reports/{id}: a frozen weekly snapshot (`final`) or the provisional week-to-date
 * figures (`current`, status `provisional`, frozen_at null). `report` is the frozen body as the
 * reports step wrote it; its members are documented by that step.
 */
export const Report = z.strictObject({
  api_status: ApiStatus,
  id: z.string(),
  week_start: Day,
  week_end: Day,
  status: z.enum(['final', 'provisional']),
  frozen_at: DateTime.nullable(),
  generated_at: DateTime,
  report: z.record(z.string(), z.unknown()),
  corrections: z.array(ReportCorrection),
});
export type Report = z.infer<typeof Report>;
