import { generationAsOfMs, summaryAsOf } from './answer-time.ts';
import type { EvidenceFile } from './evidence.ts';
import type { PaymentTermsFile } from './payment-terms.ts';
import type { ServiceDetailFile } from './service-detail.ts';

/**
 * The render-instant members of a published single-service file (`api/v1/services/<id>.json`,
 * ServiceDetailFile): the one list of the members whose value is computed when the file is rendered
 * and computed again when the server answers.
 *
 * They move merely because time passes (a publish instant, a compute instant, days counted to it, a
 * window that ends at it). A file carries each as of its own render, so that a plain static host
 * serves a complete, contract-valid object; those values do not change while the service's data
 * does not, so an unchanged service's file is still shared, byte for byte, by later generations
 * (docs/notes/incremental-publish.md). A file shared from an earlier generation therefore holds that
 * generation's instants; the server (serve/site/details.ts, serve/operations/get-service.ts) and
 * `atlas verify` replace them with the current generation's. Paths are dotted from the object's root.
 *
 * Other members the server recomputes at its answer are not here because their file value is
 * already what the contract says at the render: freshness and membership (site/contract/freshness.ts),
 * `directory.evaluated_at` (split with the manifest, site/contract/directory-evaluated.ts), the
 * daily series (re-windowed, site/contract/daily-series.ts).
 */
export const RENDER_INSTANT_MEMBERS = ['generated_at', 'data_as_of', 'evidence.monitoring_days', 'payment_terms.window_start'] as const;

/** The instants of one render: the publish instant and the last compute before it (null: none yet). */
export interface RenderInstants {
  generatedAt: string;
  dataAsOf: string | null;
}

/** What publish shapes for one service before the render-instant members go in. */
export type ServiceDetailShape = Omit<ServiceDetailFile, 'generated_at' | 'data_as_of' | 'evidence' | 'payment_terms'> & {
  evidence: EvidenceFile;
  payment_terms: PaymentTermsFile | null;
};

/**
 * A shaped service with its render-instant members at `at`: `generated_at` and `data_as_of` the
 * render's, `monitoring_days` and `window_start` counted to `data_as_of` (else `generated_at`) by the
 * generation stage of answer-time completion (site/contract/answer-time.ts summaryAsOf), the values
 * the server completes an answer with. Member order is left to the schema that validates it.
 */
export function serviceFileAt(shape: ServiceDetailShape, at: RenderInstants): ServiceDetailFile {
  return { ...summaryAsOf(shape, generationAsOfMs(at)), generated_at: at.generatedAt, data_as_of: at.dataAsOf };
}
