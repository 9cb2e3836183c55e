/**
 * Benchmark of `atlas publish`, full and incremental (docs/notes/incremental-publish.md):
 *   npm run bench -- publish [--size N] [--days D] [--no-pages] [--keep DIR] [--only full]
 *                            [--cpu-prof DIR] [--hashes FILE]
 * Seeds N services (default 100,000) with D days of checks (default 1) in a DuckDB file with the
 * publish tests' seeder (test/pipeline/publish/seed.ts), runs compute once, then three publishes, each in
 * its own process (peak RSS is the child's): a full publish (the baseline), a publish with nothing
 * changed, and a publish after 2% of the services changed through the store (a third each: evidence,
 * payment-term summary, directory membership). Disk of a generation counts each inode once; an
 * extra generation's disk counts only the blocks it does not share with the previous generation
 * (its new files and its own directories). Ratios against the full publish of the same run:
 * targets nothing-changed / full < 0.10 (time), extra generation / full < 0.05 (disk); the
 * absolute targets at 100,000 services are 2%-changed < 10 s and full < 90 s with peak RSS < 1.5 GB.
 * --only full: stop after the full publish (iterating on the full render's cost).
 * --cpu-prof DIR: each publish child writes a V8 CPU profile (node --cpu-prof) into DIR.
 * --hashes FILE: write `sha256  path` of every file of the full publish's generation, sorted by path,
 * leaving out the files that hold the generation id, the publish run id or the signing key
 * or the runs' timings (manifest.json, checksums.*, healthz.json, atlas-signing-key.json,
 * api/v1/status.json, run-log.json) and index/fingerprints.txt (every line of it hashes the salt,
 * which names the rendering code itself: pipeline/publish/fingerprint.ts); with a fixed --size the same
 * code gives the same file, so two checkouts can be compared byte for byte (the publish instant and
 * the seeded world are fixed).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { computeAll } from '../../pipeline/compute/index.ts';
import { PROJECT_ROOT } from '../../pipeline/core/paths.ts';
import { FINGERPRINTS_FILE } from '../../pipeline/publish/fingerprint.ts';
import { makeContext, openTestStore } from '../helpers/context.ts';
import { seedChangesAndReports, seedRaw } from '../pipeline/publish/seed.ts';

interface ChildResult {
  ms: number;
  cpu_ms: number;
  steps: Record<string, number>;
  generation: string;
  dir: string;
  incremental: { previous: string | null; rendered: number; linked: number };
  counts: { services: number };
  peak_rss_mb: number;
}

const NOW = new Date('2026-11-25T12:00:00.000Z');

function option(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  const v = i >= 0 ? Number(args[i + 1]) : fallback;
  if (!Number.isFinite(v) || v < 1) throw new Error(`--${name} must be a positive number`);
  return v;
}

function publishChild(
  dataDir: string,
  now: Date,
  mode: 'full' | 'incremental',
  pages: boolean,
  cpuProf: string | null,
): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const prof = cpuProf ? ['--cpu-prof', '--cpu-prof-dir', cpuProf, '--cpu-prof-name', `publish-${mode}-${now.getTime()}.cpuprofile`] : [];
    const child = spawn(
      process.execPath,
      [
        ...prof,
        '--import',
        'tsx',
        join(PROJECT_ROOT, 'test', 'bench', 'publish-child.ts'),
        dataDir,
        now.toISOString(),
        mode,
        pages ? 'pages' : 'no-pages',
      ],
      { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`publish child exited with ${code}`));
      resolve(JSON.parse(out.trim().split('\n').pop()!) as ChildResult);
    });
  });
}

/** Inodes of every file under `root`, and the allocated bytes of the directories and of the files not in `shared`. */
function diskOf(root: string, shared: ReadonlySet<number> = new Set()): { bytes: number; inodes: Set<number> } {
  const inodes = new Set<number>();
  let bytes = 0;
  const walk = (dir: string) => {
    bytes += statSync(dir).blocks * 512;
    for (const d of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, d.name);
      if (d.isDirectory()) walk(p);
      else {
        const st = statSync(p);
        if (!inodes.has(st.ino) && !shared.has(st.ino)) bytes += st.blocks * 512;
        inodes.add(st.ino);
      }
    }
  };
  walk(root);
  return { bytes, inodes };
}

/** Files whose bytes differ between two publishes of the same data: generation id, run id, signing key, run timings. */
const UNSTABLE = new Set(['manifest.json', 'healthz.json', 'atlas-signing-key.json', 'run-log.json', join('api', 'v1', 'status.json')]);

/** `sha256  path` of every file under `root` (sorted by path) but the UNSTABLE ones and the seal. */
function hashTree(root: string): string {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const d of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, d.name);
      if (d.isDirectory()) walk(p);
      else {
        const rel = relative(root, p);
        if (UNSTABLE.has(rel) || rel === FINGERPRINTS_FILE || rel.startsWith('checksums.')) continue;
        out.push(`${createHash('sha256').update(readFileSync(p)).digest('hex')}  ${rel}`);
      }
    }
  };
  walk(root);
  return `${out.sort((a, b) => (a.slice(66) < b.slice(66) ? -1 : 1)).join('\n')}\n`;
}

const mb = (b: number) => `${(b / 2 ** 20).toFixed(1)} MB`;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

export async function run(args: string[]): Promise<void> {
  const n = option(args, 'size', 100_000);
  const days = option(args, 'days', 1);
  const pages = !args.includes('--no-pages');
  const onlyAt = args.indexOf('--only');
  const onlyFull = onlyAt >= 0 && args[onlyAt + 1] === 'full';
  if (onlyAt >= 0 && !onlyFull) throw new Error('--only takes `full`');
  const profAt = args.indexOf('--cpu-prof');
  const cpuProf = profAt >= 0 ? resolve(args[profAt + 1]!) : null;
  if (cpuProf) mkdirSync(cpuProf, { recursive: true });
  const hashesAt = args.indexOf('--hashes');
  const hashes = hashesAt >= 0 ? resolve(args[hashesAt + 1]!) : null;
  const keepAt = args.indexOf('--keep');
  const dataDir = keepAt >= 0 ? args[keepAt + 1]! : mkdtempSync(join(tmpdir(), 'atlas-bench-publish-'));
  mkdirSync(dataDir, { recursive: true });
  try {
    let t = performance.now();
    let store = await openTestStore(dataDir, NOW);
    const ctx = makeContext(dataDir, { now: NOW.toISOString() });
    try {
      await seedRaw(store, NOW, n, days);
      await seedChangesAndReports(store, NOW);
      await computeAll(ctx, store, { scope: 'full' });
    } finally {
      store.close();
    }
    process.stdout.write(`seeded ${n} services (${days} d of checks) and computed in ${s(performance.now() - t)} (load ${load()})\n`);

    const at = (min: number) => new Date(NOW.getTime() + min * 60_000);
    const full = await publishChild(dataDir, at(1), 'full', pages, cpuProf);
    process.stdout.write(
      `full publish: ${s(full.ms)} wall, ${s(full.cpu_ms)} CPU, peak RSS ${full.peak_rss_mb} MB (load ${load()})\n` +
        `steps, full: ${JSON.stringify(full.steps)}\n`,
    );
    if (hashes) {
      writeFileSync(hashes, hashTree(full.dir));
      process.stdout.write(`hashes of the full publish's files in ${hashes}\n`);
    }
    if (onlyFull) return;
    const same = await publishChild(dataDir, at(6), 'incremental', pages, cpuProf);
    process.stdout.write(`nothing changed: ${s(same.ms)}, peak RSS ${same.peak_rss_mb} MB (load ${load()})\n`);

    // 2% of the services change through the store: a third evidence, a third terms, a third membership.
    t = performance.now();
    store = await openTestStore(dataDir, NOW);
    try {
      const pick = (k: number) => `SELECT id FROM services WHERE hash(id) % 150 = ${k}`;
      await store.run(`UPDATE evidence SET passed_30d = greatest(passed_30d - 1, 0) WHERE service_id IN (${pick(0)})`);
      await store.run(`UPDATE evidence SET pass_rate = 0.5 WHERE service_id IN (${pick(1)})`);
      await store.run(`UPDATE directory SET in_directory = NOT in_directory WHERE service_id IN (${pick(2)})`);
      await store.run(`UPDATE terms_summary SET changes_30d = changes_30d + 1 WHERE service_id IN (${pick(3)})`);
    } finally {
      store.close();
    }
    const changed = await publishChild(dataDir, at(11), 'incremental', pages, cpuProf);
    process.stdout.write(
      `2% changed (${changed.incremental.rendered} rendered): ${s(changed.ms)}, peak RSS ${changed.peak_rss_mb} MB (load ${load()})\n`,
    );

    const d1 = diskOf(full.dir);
    const d2 = diskOf(same.dir, d1.inodes);
    const d3 = diskOf(changed.dir, d2.inodes);
    const rows: [string, ChildResult, number][] = [
      ['full', full, d1.bytes],
      ['nothing changed', same, d2.bytes],
      ['2% changed', changed, d3.bytes],
    ];
    process.stdout.write(`\n${n} services, ${full.counts.services} published; load average ${load()}\n`);
    process.stdout.write('run               wall      CPU       peak RSS   rendered  shared   disk (new blocks)\n');
    for (const [name, r, bytes] of rows)
      process.stdout.write(
        `${name.padEnd(17)} ${s(r.ms).padStart(8)}  ${s(r.cpu_ms).padStart(8)}  ${`${r.peak_rss_mb} MB`.padStart(8)}  ${String(r.incremental.rendered).padStart(8)}  ${String(r.incremental.linked).padStart(7)}  ${mb(bytes)}\n`,
      );
    const ratio = (a: number, b: number) => (a / b).toFixed(3);
    process.stdout.write(
      `ratios: nothing-changed / full time ${ratio(same.ms, full.ms)} (target < 0.10); 2%-changed / full time ${ratio(changed.ms, full.ms)}; ` +
        `extra generation / full disk ${ratio(d3.bytes, d1.bytes)} (2% changed), ${ratio(d2.bytes, d1.bytes)} (nothing changed) (target < 0.05)\n`,
    );
    process.stdout.write(`steps, full: ${JSON.stringify(full.steps)}\n`);
    process.stdout.write(`steps, nothing changed: ${JSON.stringify(same.steps)}\n`);
    process.stdout.write(`steps, 2% changed: ${JSON.stringify(changed.steps)}\n`);
  } finally {
    if (keepAt < 0) rmSync(dataDir, { recursive: true, force: true });
  }
}
