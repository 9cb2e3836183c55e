import type { PaymentTerms, PaymentTermsFile } from './payment-terms.ts';

/**
 * `payment_terms.window_start` of an answer: the one TypeScript copy of the rule, for the server
 * (when it answers and renders pages), `atlas verify` and anything else that reads the published
 * files. The SQL copy is view terms_90d in pipeline/store/rules.sql, which compute stores in
 * `terms_summary`; a generated-case test checks that both give the same answer.
 *
 *   window_start = the later of the first valid payment request observed and (at − 90 days)
 *
 * where `at` is the generation's `data_as_of` (the compute the terms come from), else its
 * `generated_at`: the same instant the evidence figures count to (monitoringAsOfMs,
 * site/contract/monitoring.ts), so the window stops moving when the pipeline stops, like the counts.
 *
 * The published files split it, so that the passing of time does not change every service's file
 * (docs/notes/incremental-publish.md): while `limited` is true the window starts at the first
 * observation, a value that never moves, and the file carries it; once tracking has run 90 days the
 * window starts 90 days before the compute instant, a value that moves at every compute, and the file
 * carries null. `limited` stays in the files: it flips once in a service's life, so keeping it costs
 * one re-render per service. The answer is the later of the file's value (when there is one) and
 * at − 90 days; a file that carries the whole value (a generation published before the split, or an
 * object already answered) therefore answers its own value, since it was computed at that instant.
 *
 * Pure and dependency-free (types only), so the pipeline and the server can both import it.
 */

/** Length of the payment-terms window, in days (the 90 of changes_90d). */
export const TERMS_WINDOW_DAYS = 90;

const DAY_MS = 86_400_000;

/** The window start at `atMs` (epoch milliseconds) of a file's `window_start` (null: tracked 90 days or more). */
export function termsWindowStart(fileStart: string | null, atMs: number): string {
  const floor = atMs - TERMS_WINDOW_DAYS * DAY_MS;
  // A value that is not an instant is kept, so that the contract check of the answer rejects it.
  if (fileStart !== null && !(Date.parse(fileStart) < floor)) return fileStart;
  return new Date(floor).toISOString();
}

/**
 * The contract's payment_terms of a published file at `atMs`: `window_start` completed
 * (termsWindowStart), every member in place. Null stays null (no valid observation).
 */
export function withTermsWindowStart(terms: PaymentTermsFile | PaymentTerms | null, atMs: number): PaymentTerms | null {
  if (terms === null) return null;
  return { ...terms, window_start: termsWindowStart(terms.window_start, atMs) };
}
