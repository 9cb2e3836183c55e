import { JobKind } from '../../site/contract/common.ts';
import type { OnlyKind } from './due.ts';

/**
 * The scheduled jobs the probe engine serves, each recorded as runs of its own kind (the status
 * windows count a slot of a job only for a run of that job's kind): the calls are the `probe` job,
 * the documentation pages the `docs` job. The one home of which operations belong to which job kind.
 */
export const PROBE_JOBS = [
  { kind: JobKind.enum.probe, only: 'calls' },
  { kind: JobKind.enum.docs, only: 'documentation' },
] as const satisfies readonly { kind: JobKind; only: Exclude<OnlyKind, 'all'> }[];
export type ProbeJobKind = (typeof PROBE_JOBS)[number]['kind'];

/** The run kind of a probe run over `only`: a run over every operation (`all`) is recorded as `probe`. */
export function probeRunKind(only: OnlyKind): ProbeJobKind {
  return PROBE_JOBS.find((j) => j.only === only)?.kind ?? JobKind.enum.probe;
}

/**
 * The probe jobs `only` covers, in order: `all` is both, calls first. A run over every operation
 * (`all`) is therefore one run per job, so each job is recorded under its own kind whichever
 * command ran it (`atlas cycle`, `atlas probe`).
 */
export function probeJobsFor(only: OnlyKind): (typeof PROBE_JOBS)[number][] {
  return PROBE_JOBS.filter((j) => only === 'all' || j.only === only);
}
