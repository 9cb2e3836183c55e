/**
 * Wire shapes of the weekly report (`/api/v1/reports`, `/api/v1/reports/{id}`) are the contract's
 * (site/contract/reports.ts): the body this step computes (`ReportBody`), the corrections it appends
 * (`ReportCorrection`) and the envelopes (`Report`, `ReportList`). The frozen body is stored once in
 * `reports.body` and served byte-for-byte; corrections are returned alongside it and never change it.
 */
export type {
  ReportBody,
  ReportCorrection as Correction,
  ReportKindChecks as KindChecks,
  Report as ReportResponse,
  ReportList as ReportIndex,
} from '../../site/contract/reports.ts';
