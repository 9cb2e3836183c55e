import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { BENCH_LIMITS, HOSTILE_CASES, runCases, startHostileServer } from './hostile-cases.ts';

/**
 * `npm run bench -- hostile [--size N] [--only substring]`
 *
 * Runs every case of the hostile-input table (hostile-cases.ts) in its own child process, one at a
 * time, and prints `case | peak RSS | time | recorded reason`, plus whether the child finished and
 * earlier rows stayed intact. Peak RSS is the child's VmHWM (its whole process: Node, tsx, DuckDB).
 * A baseline case (`baseline`: the large page at 10 items) is measured first in the same command,
 * so figures can be read as ratios on a loaded machine. --size sets the items of the large registry
 * page (default 200,000).
 */
function arg(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i < 0 ? undefined : args[i + 1];
}

export async function run(args: string[]): Promise<void> {
  const size = Number(arg(args, '--size') ?? 200_000);
  const only = arg(args, '--only');
  const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  process.stdout.write(`load average before: ${load()}; large page: ${size} items\n`);
  const baseSrv = await startHostileServer({ size: 10, maxBytes: BENCH_LIMITS.maxBytes });
  const server = await startHostileServer({ size, maxBytes: BENCH_LIMITS.maxBytes });
  const rows: string[][] = [['case', 'target', 'peak RSS MiB', 'time ms', 'finished', 'earlier rows', 'recorded reason']];
  const cases = [{ ...HOSTILE_CASES[0]!, label: 'baseline (10-item page)', srv: baseSrv }];
  for (const c of HOSTILE_CASES) if (!only || c.name.includes(only)) cases.push({ ...c, label: c.name, srv: server });
  try {
    for (const c of cases) {
      const dir = mkdtempSync(join(tmpdir(), 'atlas-hostile-bench-'));
      try {
        const [r] = await runCases([c], c.srv, [dir], BENCH_LIMITS);
        if (!r) throw new Error('no result');
        const ok = c.reason.test(r.reason) && Object.entries(c.facts ?? {}).every(([k, v]) => r.facts[k] === v);
        rows.push([
          c.label,
          c.target,
          String(r.peakRssMiB),
          String(r.ms),
          r.exitCode === 0 ? 'yes' : `exit ${r.exitCode}`,
          r.earlierRowsLost === 0 ? 'intact' : `${r.earlierRowsLost} lost`,
          `${ok ? '' : `UNEXPECTED ${JSON.stringify(r.facts)} `}${r.reason.replace(/http:\/\/127\.0\.0\.1:\d+/g, '').slice(0, 110)}`,
        ]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  } finally {
    await baseSrv.close();
    await server.close();
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const [i, r] of rows.entries()) {
    process.stdout.write(`| ${r.map((x, j) => x.padEnd(widths[j]!)).join(' | ')} |\n`);
    if (i === 0) process.stdout.write(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|\n`);
  }
  process.stdout.write(`load average after: ${load()}\n`);
}
