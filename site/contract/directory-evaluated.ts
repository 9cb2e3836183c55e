import type { DirectoryResult, DirectoryResultFile } from './directory.ts';

/**
 * `directory.evaluated_at` of an answer: the one copy of the rule, for the server (when it answers
 * and renders pages), `atlas verify` and anything else that reads the published files.
 *
 * Compute evaluates membership every five minutes for the services checked or placed since their
 * last evaluation (scope `changed`) and every hour for every service (scope `full`); an evaluation
 * that finds the same state confirms the stored row, moving its instant (docs/notes/compute.md). So a
 * service's instant is
 *
 *   - its own, when its latest evaluation is a changed-scope one (always after the last full one);
 *   - else the last full evaluation's (a full evaluation covers every service);
 *   - null when it was never evaluated.
 *
 * The published files split it, so that the hourly full evaluation does not change every service's
 * file (docs/notes/incremental-publish.md): a service's file carries `directory.scope`, the scope of
 * its latest evaluation (null: never evaluated), and `directory.evaluated_at` only when that
 * evaluation was its own changed-scope one (null otherwise); the generation's `manifest.json`
 * carries `directory_full_evaluation_at`, the last full evaluation's instant. The answer is the later
 * of the two (the file's own instant when there is one, else the full evaluation's). A file without
 * `scope` (a generation published before the split, or an object already answered) carries the
 * whole value and is kept as it is.
 *
 * Pure and dependency-free, so the pipeline and the server can both import it.
 */
export function directoryEvaluatedAt(
  dir: Pick<DirectoryResultFile, 'evaluated_at' | 'scope'>,
  fullEvaluationAt: string | null | undefined,
): string | null {
  if (dir.scope === undefined) return dir.evaluated_at;
  if (dir.scope === null) return null;
  const own = dir.evaluated_at;
  if (!fullEvaluationAt) return own;
  if (!own) return fullEvaluationAt;
  return Date.parse(own) >= Date.parse(fullEvaluationAt) ? own : fullEvaluationAt;
}

/**
 * The contract's directory object of a published file: `evaluated_at` the answer's value
 * (directoryEvaluatedAt) and the file-only `scope` left out, members in the contract's order.
 */
export function withDirectoryEvaluatedAt(dir: DirectoryResultFile, fullEvaluationAt: string | null | undefined): DirectoryResult {
  return {
    rule: dir.rule,
    evaluated_at: directoryEvaluatedAt(dir, fullEvaluationAt),
    in_directory: dir.in_directory,
    criteria: dir.criteria,
  };
}
