import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../../pipeline/core/config.ts';
import { fleetConfig, startFleet, type Fleet } from '../../../../pipeline/fleet/index.ts';
import { BatchFileError, ingestCheckBatches, readBatch, runProbeToBatch } from '../../../../pipeline/probe/batches/index.ts';
import { runProbe } from '../../../../pipeline/probe/index.ts';
import { migrate, openStore, type Store } from '../../../../pipeline/store/index.ts';
import { runCli } from '../../../helpers/cli.ts';
import { makeContext, openTestStore, tempDir, testClock } from '../../../helpers/context.ts';
import { seedServices, type SeedService } from '../seed.ts';

/**
 * Probing past one machine: two shard workers (0/2 and 1/2) read the due list from a read-only
 * database and write batch files; `ingest checks` loads them into the writer's database. The stored
 * checks equal those of one unsharded run at the same instant (modulo run ids and latencies), and a
 * second ingest loads nothing.
 */
const NOW = '2026-11-25T12:10:00Z';

describe('probe shards with batch files', () => {
  const clock = testClock(NOW);
  const t = tempDir();
  let fleet: Fleet;
  const seedDb = join(t.dir, 'seed', 'atlas.duckdb');

  beforeAll(async () => {
    fleet = await startFleet({ clock, slowMs: 30_000, sseIntervalMs: 20 });
    const services: SeedService[] = fleet.endpoints
      .filter((e) => e.protocol !== 'web')
      .map((e, i) => ({
        id: `cand_s${i}`,
        protocol: e.protocol === 'mcp' ? 'mcp' : 'x402',
        ops: [{ url: e.url, method: e.method, rule: e.protocol === 'mcp' ? ('mcp-reach/3' as const) : ('x402-mainnet/2' as const) }],
      }));
    const store = await openTestStore(join(t.dir, 'seed'));
    try {
      await seedServices(store, services);
    } finally {
      store.close();
    }
  });
  afterAll(async () => {
    await fleet.close();
    t.cleanup();
  });

  /** A data folder whose database starts as a copy of the seeded one (closed, so its file is complete). */
  const copyOf = (name: string) => {
    const dir = join(t.dir, name);
    mkdirSync(dir, { recursive: true });
    copyFileSync(seedDb, join(dir, 'atlas.duckdb'));
    return { dir, db: join(dir, 'atlas.duckdb') };
  };
  const ctxFor = (dir: string) => makeContext(dir, { clock, config: parseConfig(fleetConfig(fleet)) });
  type Row = {
    service_id: string;
    operation: string;
    slot: string;
    status: number | null;
    passed: boolean;
    reason: string;
    protocols: string | null;
  };
  const evidence = (s: Store) =>
    s.all<Row>(
      'SELECT service_id, operation, slot, status, passed, reason, protocols::VARCHAR AS protocols FROM checks ORDER BY service_id, operation, slot',
    );
  const terms = (s: Store) =>
    s.all<{ service_id: string; terms_hash: string }>('SELECT service_id, terms_hash FROM payment_terms ORDER BY ALL');

  it('two shards loaded by one writer equal one unsharded run; a second ingest loads nothing', async () => {
    const out = join(t.dir, 'batches');
    // The workers: read-only opens of the seeded database (never migrated or written).
    for (const index of [0, 1]) {
      const ro = await openStore(seedDb, { readOnly: true });
      try {
        const s = await runProbeToBatch(ctxFor(join(t.dir, 'seed')), ro, { out, shard: { index, count: 2 }, timeoutMs: 3000 });
        expect(s.status).toBe('ok');
        expect(s.counts.stored).toBe(s.counts.probed);
      } finally {
        ro.close();
      }
    }
    expect(readdirSync(out).filter((n) => n.startsWith('.'))).toEqual([]); // no temporary file left

    const writer = copyOf('writer');
    const base = copyOf('base');
    const w = await openStore(writer.db);
    const b = await openStore(base.db);
    try {
      await migrate(w, clock());
      const first = await ingestCheckBatches(ctxFor(writer.dir), w, out);
      expect(first.files).toBe(2);
      expect(first.loaded).toHaveLength(2);
      expect(first.invalid).toEqual([]);

      const unsharded = await runProbe(ctxFor(base.dir), b, { timeoutMs: 3000 });
      expect(first.checksInserted).toBe(unsharded.counts.stored);
      expect(await evidence(w)).toEqual(await evidence(b));
      // the batch files carry each check's protocols (the fleet has 402s of every kind)
      const seen = new Set((await evidence(w)).map((r) => r.protocols));
      for (const p of ['[x402-v2]', '[x402-v1]', '[x402-auth-only]', '[mpp]', '[l402]', '[x402-v2, mpp]', '[]', null])
        expect(seen).toContain(p);
      expect(await terms(w)).toEqual(await terms(b));

      // The workers' runs are recorded with their own ids; the load is a run of its own.
      const runs = await w.all<{ kind: string; status: string; n: number }>(
        'SELECT kind, status, count(*)::INTEGER AS n FROM runs GROUP BY ALL ORDER BY ALL',
      );
      expect(runs).toEqual([
        { kind: 'ingest_checks', status: 'ok', n: 1 },
        { kind: 'probe', status: 'ok', n: 2 },
      ]);
      const linked = await w.all<{ n: number }>(
        'SELECT count(*)::INTEGER AS n FROM checks c JOIN runs r ON r.id = c.run_id WHERE r.kind = $1',
        ['probe'],
      );
      expect(linked[0]!.n).toBe(first.checksInserted);

      const again = await ingestCheckBatches(ctxFor(writer.dir), w, out);
      expect({ loaded: again.loaded.length, already: again.alreadyLoaded, inserted: again.checksInserted }).toEqual({
        loaded: 0,
        already: 2,
        inserted: 0,
      });
      expect(await evidence(w)).toEqual(await evidence(b));
    } finally {
      w.close();
      b.close();
    }
  }, 60_000);

  it('a torn file is refused with its name; the other files still load', async () => {
    const out = join(t.dir, 'torn');
    const ro = await openStore(seedDb, { readOnly: true });
    let good = '';
    try {
      good = (await runProbeToBatch(ctxFor(join(t.dir, 'seed')), ro, { out, shard: { index: 0, count: 2 }, timeoutMs: 3000 })).file;
      const other = (await runProbeToBatch(ctxFor(join(t.dir, 'seed')), ro, { out, shard: { index: 1, count: 2 }, timeoutMs: 3000 })).file;
      // Cut the second file in the middle of a line: what a copy interrupted by a full disk leaves.
      const text = readFileSync(other, 'utf8');
      writeFileSync(other, text.slice(0, Math.floor(text.length / 2)));
      await expect(readBatch(other)).rejects.toThrow(BatchFileError);
    } finally {
      ro.close();
    }
    const dir = join(t.dir, 'torn-writer');
    const w = await openTestStore(dir);
    try {
      await seedServices(w, []);
      const s = await ingestCheckBatches(ctxFor(dir), w, out);
      expect(s.loaded.map((l) => join(out, l.file))).toEqual([good]);
      expect(s.invalid).toHaveLength(1);
      expect(s.invalid[0]!.error).toMatch(/^batch file probe_\S+\.checks\.jsonl: line \d+: /);
      const run = await w.all<{ status: string; error: string }>("SELECT status, error FROM runs WHERE kind = 'ingest_checks'");
      expect(run[0]!.status).toBe('partial');
      expect(run[0]!.error).toContain(s.invalid[0]!.file);
    } finally {
      w.close();
    }
  }, 60_000);

  it('atlas probe --out and atlas ingest checks from the command line (exit 2 naming a refused file)', async () => {
    const out = join(t.dir, 'cli-batches');
    const cfgFile = join(t.dir, 'fleet.config.json');
    writeFileSync(cfgFile, JSON.stringify(fleetConfig(fleet)));
    const worker = await runCli([
      '--data',
      join(t.dir, 'seed'),
      '--config',
      cfgFile,
      '--now',
      NOW,
      'probe',
      '--shard',
      '1/2',
      '--timeout-ms',
      '3000',
      '--out',
      out,
    ]);
    expect(worker.code).toBe(0);
    const files = readdirSync(out);
    expect(files).toHaveLength(1);
    expect(worker.stderr).toContain(`batch ${join(out, files[0]!)}`);
    writeFileSync(join(out, 'probe_20261125T121000Z_00000000.checks.jsonl'), '{"format":"atlas-checks/1"');
    const dir = join(t.dir, 'cli-writer');
    const ingest = await runCli(['--data', dir, '--config', cfgFile, '--now', NOW, 'ingest', 'checks', out]);
    expect(ingest.code).toBe(2);
    expect(ingest.stderr).toContain('probe_20261125T121000Z_00000000.checks.jsonl');
    expect(ingest.stderr).toMatch(/1 of 2 batch files loaded/);
  }, 60_000);
});
