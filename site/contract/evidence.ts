import { z } from 'zod';
import { CheckIntervalName, CheckReason, DateTime, Freshness, PassRule, PaymentProtocol } from './common.ts';

/** Bounds of last_check.auth_schemes (the probe records no more, so a hostile header cannot grow it). */
export const MAX_AUTH_SCHEMES = 8;
export const MAX_AUTH_SCHEME_LENGTH = 64;

/** evidence.last_check: the latest check of any operation (members are our choice). */
export const LastCheck = z.strictObject({
  checked_at: DateTime,
  operation: z.string(),
  status: z.number().int().nullable(),
  passed: z.boolean(),
  reason: CheckReason,
  latency_ms: z.number().nonnegative().nullable(),
  rule: PassRule,
  protocols: z.array(PaymentProtocol).nullable(),
  auth_schemes: z
    .array(
      z
        .string()
        .min(1)
        .max(MAX_AUTH_SCHEME_LENGTH)
        .regex(/^[a-z0-9!#$%&'*+.^_`|~-]+$/),
    )
    .max(MAX_AUTH_SCHEMES)
    .nullable(),
});
export type LastCheck = z.infer<typeof LastCheck>;

/** Evidence measured by Atlas. `schedule_tier` is optional: it is dropped from SCHEDULE_TIER_SUNSET on (common.ts). */
export const Evidence = z.strictObject({
  operations: z.number().int().nonnegative(),
  check_interval_hours: z.number().positive(),
  check_interval: CheckIntervalName,
  check_interval_rule: z.string(),
  schedule_tier: CheckIntervalName.optional(),
  monitoring_since: DateTime,
  monitoring_days: z.number().nonnegative(),
  limited_evidence: z.boolean(),
  checks_30d: z.number().int().nonnegative(),
  passed_30d: z.number().int().nonnegative(),
  missed_30d: z.number().int().nonnegative(),
  pass_rate: z.number().min(0).max(1).nullable(),
  freshness: Freshness,
  last_check: LastCheck.nullable(),
});
export type Evidence = z.infer<typeof Evidence>;

/**
 * Evidence as a generation's files carry it (index records, single-service files): without
 * `monitoring_days`, which moves merely because time passes; the server adds it when it answers
 * (site/contract/monitoring.ts).
 */
export const EvidenceFile = Evidence.omit({ monitoring_days: true });
export type EvidenceFile = z.infer<typeof EvidenceFile>;
