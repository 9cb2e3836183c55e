import { z } from 'zod';
import { ApiStatus, DateTime, Day } from './common.ts';

/** A correction published alongside a frozen report; it never changes the report's figures. */
export const ReportCorrection = z.strictObject({
  seq: z.number().int().positive(),
  corrected_at: DateTime,
  note: z.string(),
  figures: z.record(z.string(), z.unknown()),
});
export type ReportCorrection = z.infer<typeof ReportCorrection>;

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
