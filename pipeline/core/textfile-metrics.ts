import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Gauge, Registry } from 'prom-client';
import type { RunStatus } from '../../site/contract/common.ts';

/**
 * A pipeline run as a Prometheus textfile for node_exporter's textfile collector
 * (docs/operations.md "Metrics"): `<data>/metrics/atlas_<kind>.prom`, one file per run kind, replaced by every run of
 * that kind. Rendered by prom-client (its own escaping and format), written atomically (a temp file
 * in the same folder, then rename), so the collector never reads half a file; the temp name does
 * not end in `.prom`, so the collector never picks it up either.
 */
export interface RunTextfile {
  kind: string;
  status: Exclude<RunStatus, 'running'>;
  /** Seconds the run took (its `runs` row: finished_at - started_at). */
  durationSeconds: number;
  /** When the latest ok or partial run of this kind finished, in Unix seconds; null when none has. */
  lastSuccessSeconds: number | null;
  /** The run's `runs.counts`: every finite number in it (nested objects as dotted names) is a series. */
  counts: unknown;
  /** Named step durations in milliseconds (stepTimer's `steps`). */
  stepsMs: Record<string, number>;
}

/** Where the textfiles go: `<data>/metrics` (the database sits at `<data>/atlas.duckdb`). */
export const METRICS_DIR = 'metrics';

/** Count series per file at most (counts are keyed by code, so far fewer; this only bounds a bug). */
const MAX_COUNT_SERIES = 500;
/** Nesting followed in `counts` (e.g. quirks by reason). */
const MAX_DEPTH = 3;

export function textfileName(kind: string): string {
  if (!/^[a-z][a-z0-9_]*$/.test(kind)) throw new Error(`run kind must be lower-case letters, digits and _: ${JSON.stringify(kind)}`);
  return `atlas_${kind}.prom`;
}

/** The Prometheus text of one run (series are labelled with `kind`, so all files can be summed). */
export async function renderRunTextfile(r: RunTextfile): Promise<string> {
  const registry = new Registry();
  const gauge = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
    new Gauge<L>({ name, help, labelNames, registers: [registry] });
  const kind = { kind: r.kind };
  if (r.lastSuccessSeconds !== null) {
    gauge('atlas_run_last_success_timestamp_seconds', 'When the latest ok or partial run of this kind finished (Unix seconds).', [
      'kind',
    ]).set(kind, r.lastSuccessSeconds);
  }
  gauge('atlas_run_duration_seconds', 'How long the latest run of this kind took.', ['kind']).set(kind, r.durationSeconds);
  gauge('atlas_run_failed', 'Whether the latest run of this kind failed (1) or returned, ok or partial (0).', ['kind']).set(
    kind,
    r.status === 'failed' ? 1 : 0,
  );
  gauge('atlas_run_partial', 'Whether the latest run of this kind returned with a part failed (1).', ['kind']).set(
    kind,
    r.status === 'partial' ? 1 : 0,
  );
  const steps = gauge('atlas_run_step_duration_seconds', 'How long each named step of the latest run of this kind took.', ['kind', 'step']);
  for (const [step, ms] of Object.entries(r.stepsMs)) if (Number.isFinite(ms)) steps.set({ kind: r.kind, step }, ms / 1000);
  const counts = gauge('atlas_run_count', "The latest run's counts (runs.counts), by name; nested counts as dotted names.", [
    'kind',
    'name',
  ]);
  for (const [name, n] of numericLeaves(r.counts)) counts.set({ kind: r.kind, name }, n);
  return registry.metrics();
}

/** Render and write `<dir>/atlas_<kind>.prom` atomically; returns its path. */
export async function writeRunTextfile(dir: string, r: RunTextfile): Promise<string> {
  const text = await renderRunTextfile(r);
  await mkdir(dir, { recursive: true });
  const path = join(dir, textfileName(r.kind));
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(tmp, text, 'utf8');
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw e;
  }
  return path;
}

/** Finite numbers in `counts` as [dotted name, value], depth-first in key order, bounded. */
export function numericLeaves(counts: unknown): [string, number][] {
  const out: [string, number][] = [];
  const walk = (v: unknown, name: string, depth: number) => {
    if (out.length >= MAX_COUNT_SERIES) return;
    if (typeof v === 'number') {
      if (Number.isFinite(v) && name) out.push([name, v]);
      return;
    }
    if (v && typeof v === 'object' && !Array.isArray(v) && depth < MAX_DEPTH) {
      for (const [k, child] of Object.entries(v)) walk(child, name ? `${name}.${k}` : k, depth + 1);
    }
  };
  walk(counts, '', 0);
  return out;
}
