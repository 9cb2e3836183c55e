import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { runDocs } from '../../pipeline/docs/index.ts';
import { httpJsonFetcher, ingestMcp, ingestX402 } from '../../pipeline/ingest/index.ts';
import { runProbe } from '../../pipeline/probe/index.ts';
import { makeContext, openTestStore } from '../helpers/context.ts';
import type { ChildLimits, Target } from './hostile-cases.ts';

/**
 * Hostile cases in their own process (see hostile-cases.ts): `hostile-child.ts '{"limits", "jobs"}'`.
 * Each job runs the real code path against its URL on the database in its folder, reads back what
 * was recorded, and sends `{ i, reason, facts, maxRssKb, ms }` to the parent (maxRss is the process
 * peak so far: per case only when the child runs one job). A thrown error is part of the case (the
 * run records it); the process then exits on its own, which is what "the child finished" means.
 */
const { limits, jobs } = JSON.parse(process.argv[2]!) as { limits: ChildLimits; jobs: { target: Target; url: string; dir: string }[] };

/**
 * Peak RSS of this process in KiB: VmHWM from /proc/self/status (Linux). getrusage's maxRSS is not
 * used where VmHWM exists: it survives exec, so a child forked from a large parent reports the
 * parent's size.
 */
function peakRssKb(): number {
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]);
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS;
}

async function main(): Promise<void> {
  for (const [i, job] of jobs.entries()) await runJob(i, job.target, job.url, job.dir);
}

async function runJob(i: number, target: Target, url: string, dir: string): Promise<void> {
  const ctx = makeContext(dir);
  const store = await openTestStore(dir);
  const t0 = performance.now();
  try {
    const fetcher = httpJsonFetcher({ retries: 0, ...limits });
    const probeOpts = { timeoutMs: limits.timeoutMs, allowPrivate: true, concurrency: 4 };
    await (target === 'ingest-x402'
      ? ingestX402(ctx, store, { source: url, registry: 'hostile', fetcher })
      : target === 'ingest-mcp'
        ? ingestMcp(ctx, store, { source: url, registry: 'hostile', full: true, delayMs: 0, fetcher })
        : target === 'probe'
          ? runProbe(ctx, store, { ...probeOpts, only: 'calls' })
          : runDocs(ctx, store, probeOpts)
    ).catch(() => undefined);
    const ms = performance.now() - t0;
    let reason: string;
    let facts: Record<string, unknown>;
    if (target === 'ingest-x402' || target === 'ingest-mcp') {
      const [run] = await store.all<{ status: string; error: string | null }>(
        `SELECT status, error FROM runs WHERE kind LIKE 'ingest_%' AND json_extract_string(args, '$.registry') = 'hostile'`,
      );
      [facts = {}] = await store.all(
        `SELECT count(*)::INT AS services, coalesce(max(length(description)), 0)::INT AS max_description,
                count(*) FILTER (contains(coalesce(description, '') || name, chr(0)))::INT AS nul,
                count(*) FILTER (contains(coalesce(description, ''), chr(65533)))::INT AS replacement
         FROM services WHERE registry = 'hostile'`,
      );
      reason = `${run?.status}: ${run?.error ?? ''}`;
    } else {
      const [check] = await store.all<{ reason: string; detail: string | null; bytes: number | null }>(
        `SELECT reason, detail, bytes FROM checks WHERE service_id LIKE '%hostile' ORDER BY checked_at DESC LIMIT 1`,
      );
      [facts = {}] = await store.all(
        `SELECT count(*)::INT AS snapshots, count(*) FILTER (contains(content, chr(0)))::INT AS nul
         FROM doc_snapshots WHERE service_id = 'svc_hostile'`,
      );
      facts = { ...facts, bytes: check?.bytes ?? null };
      reason = check ? `${check.reason}: ${check.detail ?? ''}` : '(no check recorded)';
    }
    process.send?.({ i, reason, facts, maxRssKb: peakRssKb(), ms });
  } finally {
    store.close();
  }
}

main().then(
  () => process.disconnect?.(),
  (e) => {
    process.stderr.write(`hostile-child: ${(e as Error)?.stack ?? String(e)}\n`);
    process.exitCode = 1;
    process.disconnect?.();
  },
);
