import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Context } from '../../core/context.ts';
import { AtlasError } from '../../core/errors.ts';
import { withRun } from '../../store/runs.ts';
import type { Store } from '../../store/store.ts';
import { insertCheckRecords } from '../check-writer.ts';
import { type BatchEntry, BatchFileError, type BatchRun, readBatch, runIdOfBatchFile } from './format.ts';

/**
 * `atlas ingest checks DIR`: load the probe workers' batch files (format.ts) into `checks`,
 * `payment_terms` and `runs` — the same pattern as the server's inbox (pipeline/inbox/load.ts): files
 * written elsewhere, one database writer that loads them, idempotent so it can run every cycle.
 *
 * - Each file is checked whole first (readBatch), then loaded in ONE transaction: its run row, then
 *   its checks in chunks through the writer's insert (insertCheckRecords: the anti-join on
 *   (service_id, operation, slot), terms only with their inserted check). The worker's run id is the
 *   file's name, and its run row is written in that same transaction, so `runs` is the table of
 *   loaded batches: a file whose run is there was loaded completely and is skipped. Even a file loaded
 *   again under another name could store no second check for a slot.
 * - A torn or invalid file is refused with its name and the first problem; the others still load.
 * - The load is itself a run (kind `ingest_checks`), `partial` when a file was refused.
 */
export interface BatchLoadSummary {
  runId: string;
  files: number;
  loaded: Array<{ file: string; run: string; checks: number; inserted: number; terms: number }>;
  alreadyLoaded: number;
  invalid: Array<{ file: string; error: string }>;
  checksInserted: number;
  skippedExistingSlot: number;
  termsInserted: number;
  /** The load's counts as its `runs` row keeps them. */
  counts: Record<string, number>;
}

/** Rows handed to one insert (one JSON parameter): bounded memory whatever the file's size. */
const CHUNK = 1000;

export async function ingestCheckBatches(ctx: Context, store: Store, dir: string): Promise<BatchLoadSummary> {
  if (!existsSync(dir)) throw new AtlasError('not_found', `ingest checks: no folder ${dir}`);
  const names = readdirSync(dir)
    .filter((n) => runIdOfBatchFile(n) !== null)
    .sort();
  return withRun(store, 'ingest_checks', { clock: ctx.clock, args: { dir } }, async (run) => {
    const s: BatchLoadSummary = {
      runId: run.id,
      files: names.length,
      loaded: [],
      alreadyLoaded: 0,
      invalid: [],
      checksInserted: 0,
      skippedExistingSlot: 0,
      termsInserted: 0,
      counts: {},
    };
    const counts = () => ({
      files: s.files,
      loaded: s.loaded.length,
      already_loaded: s.alreadyLoaded,
      invalid: s.invalid.length,
      checks_inserted: s.checksInserted,
      skipped_existing_slot: s.skippedExistingSlot,
      payment_terms: s.termsInserted,
    });
    run.counts = counts();
    for (const name of names) {
      const id = runIdOfBatchFile(name)!;
      const seen = await store.all<{ n: number }>('SELECT count(*)::INTEGER AS n FROM runs WHERE id = $1', [id]);
      if (seen[0]?.n) {
        s.alreadyLoaded++;
        continue;
      }
      const path = join(dir, name);
      try {
        await readBatch(path); // the whole file is checked before anything of it is stored
      } catch (e) {
        if (!(e instanceof BatchFileError)) throw e;
        s.invalid.push({ file: name, error: e.message });
        ctx.log.warn(`ingest checks: ${e.message}; not loaded`);
        continue;
      }
      const r = await loadOne(store, path);
      s.loaded.push({ file: name, ...r });
      s.checksInserted += r.inserted;
      s.skippedExistingSlot += r.checks - r.inserted;
      s.termsInserted += r.terms;
      run.counts = counts();
    }
    s.counts = counts();
    run.counts = s.counts;
    if (s.invalid.length) {
      run.status = 'partial';
      run.error = s.invalid.map((f) => f.error).join('; ');
    }
    return s;
  });
}

async function loadOne(store: Store, path: string): Promise<{ run: string; checks: number; inserted: number; terms: number }> {
  return store.transaction(async () => {
    let chunk: BatchEntry[] = [];
    let inserted = 0;
    let terms = 0;
    const flush = async () => {
      const r = await insertCheckRecords(store, chunk);
      inserted += r.checks;
      terms += r.terms;
      chunk = [];
    };
    const run = await readBatch(path, async (e) => {
      chunk.push(e);
      if (chunk.length >= CHUNK) await flush();
    });
    await flush();
    await insertRun(store, run, { inserted, terms });
    return { run: run.id, checks: run.checks, inserted, terms };
  });
}

/**
 * The worker's run row as it recorded it, except the stored-side counts, which are what this load
 * stored (a slot another worker or run filled first is `skipped_existing_slot`, as in a database run).
 */
function insertRun(store: Store, run: BatchRun, loaded: { inserted: number; terms: number }): Promise<void> {
  const probed = typeof run.counts.probed === 'number' ? run.counts.probed : run.checks;
  const counts = {
    ...run.counts,
    stored: loaded.inserted,
    skipped_existing_slot: Math.max(0, probed - loaded.inserted),
    payment_terms: loaded.terms,
  };
  return store.run(
    `INSERT INTO runs (id, kind, scheduled_at, started_at, finished_at, status, counts, error, args)
     VALUES ($1, $2, $3::TIMESTAMP, $4::TIMESTAMP, $5::TIMESTAMP, $6, $7::JSON, $8, $9::JSON)`,
    [
      run.id,
      run.kind,
      run.scheduled_at,
      run.started_at,
      run.finished_at,
      run.status,
      JSON.stringify(counts),
      run.error,
      JSON.stringify(run.args),
    ],
  );
}
