import type { z } from 'zod';
import { ChangeEvent, ChangeList, ChangeRecord } from './changes.ts';
import { ClaimCheck, DeclaredDifference, DeclaredDifferenceChange, DeclaredSource, DeclaredTermsState } from './declared-terms.ts';
import { CriterionResult, DirectoryResult } from './directory.ts';
import { ErrorBody } from './error.ts';
import { Evidence, LastCheck } from './evidence.ts';
import { FieldEntry, Fields } from './fields.ts';
import { Health } from './health.ts';
import { ModerationCounts, OutcomeReportCounts } from './moderation.ts';
import { OutcomeReportsByReceipt } from './outcome-receipt.ts';
import { Notes } from './notes.ts';
import { SignedOfferReason, SignedOffers } from './offer-receipt.ts';
import { CurrentTerms, PaymentTerms, TermsChange, TermsOffer } from './payment-terms.ts';
import { Report, ReportBody, ReportCorrection, ReportList, ReportListItem } from './reports.ts';
import { Roadmap, RoadmapItem } from './roadmap.ts';
import { RunRecord } from './runs.ts';
import { CheckRecord, Claim, DailyChecks, IntervalChange, OperationInfo, RegistryText, ServiceDetail } from './service-detail.ts';
import { QueryEcho, ServiceList } from './service-list.ts';
import { KindCounts, Stats } from './stats.ts';
import { Backfill, JobStatus, Status, WindowFigures } from './status.ts';
import { Links, RegistryListing, RegistryUsage, ServiceSummary } from './summary.ts';
import { FeedbackReceipt, KeyCreated, KeyLimits, OutcomeReceipt } from './writes.ts';

/**
 * The named schemas of the contract, by the name used in the OpenAPI document (`components.schemas`)
 * and in the field dictionary. Identity matters: a member whose schema is one of these (possibly
 * wrapped in nullable/optional/array) is shown as a reference, and its own members are documented
 * under that name.
 */
export const RESPONSES = {
  ServiceList,
  ServiceDetail,
  Stats,
  Status,
  Health,
  ReportList,
  Report,
  ChangeList,
  Roadmap,
  Fields,
  Error: ErrorBody,
  KeyCreated,
  OutcomeReceipt,
  FeedbackReceipt,
} as const satisfies Record<string, z.ZodType>;

export const PARTS = {
  ServiceSummary,
  Evidence,
  LastCheck,
  PaymentTerms,
  TermsChange,
  TermsOffer,
  CurrentTerms,
  RegistryUsage,
  RegistryListing,
  DeclaredTermsState,
  DeclaredSource,
  ClaimCheck,
  DeclaredDifference,
  DeclaredDifferenceChange,
  Links,
  Notes,
  QueryEcho,
  DirectoryResult,
  CriterionResult,
  Claim,
  OperationInfo,
  CheckRecord,
  DailyChecks,
  IntervalChange,
  RegistryText,
  OutcomeReportCounts,
  OutcomeReportsByReceipt,
  ModerationCounts,
  SignedOffers,
  SignedOfferReason,
  RunRecord,
  JobStatus,
  WindowFigures,
  Backfill,
  KindCounts,
  ReportCorrection,
  ReportListItem,
  ChangeRecord,
  ChangeEvent,
  RoadmapItem,
  FieldEntry,
  KeyLimits,
  /**
   * The body of a weekly report (computed by pipeline/reports). `Report.report` stays an open object
   * — a frozen snapshot is served as frozen even if later reports gain members — and this schema
   * documents its members (OpenAPI component and field dictionary).
   */
  ReportBody,
} as const satisfies Record<string, z.ZodType>;

export const COMPONENTS: Record<string, z.ZodType> = { ...RESPONSES, ...PARTS };

/** ServiceDetail repeats every ServiceSummary member; the dictionary lists those once, under ServiceSummary. */
export const INHERITS: Record<string, string> = { ServiceDetail: 'ServiceSummary' };

const byIdentity = new Map<z.ZodType, string>(Object.entries(COMPONENTS).map(([k, v]) => [v, k]));
export const componentName = (s: z.ZodType): string | undefined => byIdentity.get(s);
