/**
 * Benchmark on the real public registry data (test/helpers/realdata.ts; ../shared/realdata or
 * ATLAS_REALDATA): for each dataset, ingest the dump file as published + compute + publish in a
 * fresh data folder, in a child process of its own (realdata-child.ts) so peak RSS is per dataset.
 * Prints services ingested, skipped and kept-with-quirks by reason, the time of each step, CPU
 * time and peak RSS. The figures in docs/performance.md ("realdata") come from this.
 *
 *   npm run bench -- realdata [--keep DIR]
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../pipeline/core/paths.ts';
import { nonZero } from '../../pipeline/ingest/skips.ts';
import { REALDATA_FILES, realdataDir } from '../helpers/realdata.ts';

/** The data's own time (just after the later crawl), so freshness and windows are those of the data. */
const NOW = '2026-01-01T00:00:00.000Z';

interface ChildResult {
  dataset: string;
  counts: { seen: number; inserted: number; skipped: Record<string, number>; noted: Record<string, number> } & Record<string, unknown>;
  published: Record<string, unknown>;
  ingest_ms: number;
  compute_ms: number;
  publish_ms: number;
  total_ms: number;
  cpu_ms: number;
  peak_rss_mb: number;
}

function runChild(dataset: 'x402' | 'mcp', file: string, dir: string): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(PROJECT_ROOT, 'test', 'bench', 'realdata-child.ts'), dataset, file, dir, NOW],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`realdata-child ${dataset} exited with ${code}`));
      resolve(JSON.parse(out.trim().split('\n').pop()!) as ChildResult);
    });
  });
}

export async function run(args: string[]): Promise<void> {
  const keepAt = args.indexOf('--keep');
  const keep = keepAt >= 0 ? args[keepAt + 1] : undefined;
  const real = realdataDir();
  const root = keep ?? mkdtempSync(join(tmpdir(), 'atlas-bench-realdata-'));
  try {
    for (const dataset of ['x402', 'mcp'] as const) {
      const dir = join(root, dataset);
      mkdirSync(dir, { recursive: true });
      const r = await runChild(dataset, join(real, REALDATA_FILES[dataset]), dir);
      const lines = [
        `${dataset} (${REALDATA_FILES[dataset]}): ${r.counts.inserted} services ingested`,
        ...nonZero(r.counts.skipped).map(([k, n]) => `  skipped ${k}: ${n}`),
        ...nonZero(r.counts.noted).map(([k, n]) => `  kept, noted ${k}: ${n}`),
        `  ingest ${r.ingest_ms} ms, compute ${r.compute_ms} ms, publish ${r.publish_ms} ms; total ${r.total_ms} ms wall, ${r.cpu_ms} ms CPU; peak RSS ${r.peak_rss_mb} MB`,
      ];
      process.stdout.write(`${lines.join('\n')}\n`);
      process.stdout.write(`${JSON.stringify({ ...r, load_average: loadavg().map((x) => Math.round(x * 100) / 100) })}\n`);
    }
  } finally {
    if (!keep) rmSync(root, { recursive: true, force: true });
  }
}
