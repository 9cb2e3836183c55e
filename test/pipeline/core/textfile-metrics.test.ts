import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { numericLeaves, renderRunTextfile, type RunTextfile, writeRunTextfile } from '../../../pipeline/core/textfile-metrics.ts';
import { withRun } from '../../../pipeline/store/index.ts';
import { migrate } from '../../../pipeline/store/migrate.ts';
import { openStore } from '../../../pipeline/store/store.ts';
import { openTestStore, tempDir, testClock } from '../../helpers/context.ts';
import { parseExposition, value } from '../../helpers/prom-text.ts';

const run = (over: Partial<RunTextfile> = {}): RunTextfile => ({
  kind: 'probe',
  status: 'ok',
  durationSeconds: 12.5,
  lastSuccessSeconds: 1_795_000_000,
  counts: {},
  stepsMs: {},
  ...over,
});

describe('run textfiles: rendering', () => {
  it('every series labelled with the kind; counts flattened, non-numbers skipped; steps in seconds', async () => {
    const text = await renderRunTextfile(
      run({
        counts: { checked: 40, failed: 2, label: 'x', quirks: { 'bad "json"': 3, nested: { deep: { deeper: 1 } } }, list: [1, 2] },
        stepsMs: { fetch: 1500, write: 20 },
      }),
    );
    const { types, samples } = parseExposition(text);
    expect(types.get('atlas_run_count')).toBe('gauge');
    expect(value(samples, 'atlas_run_last_success_timestamp_seconds', { kind: 'probe' })).toBe(1_795_000_000);
    expect(value(samples, 'atlas_run_duration_seconds', { kind: 'probe' })).toBe(12.5);
    expect(value(samples, 'atlas_run_failed', { kind: 'probe' })).toBe(0);
    expect(value(samples, 'atlas_run_partial', { kind: 'probe' })).toBe(0);
    expect(value(samples, 'atlas_run_step_duration_seconds', { kind: 'probe', step: 'fetch' })).toBe(1.5);
    expect(value(samples, 'atlas_run_step_duration_seconds', { kind: 'probe', step: 'write' })).toBe(0.02);
    const counts = samples.filter((s) => s.name === 'atlas_run_count');
    expect(Object.fromEntries(counts.map((s) => [s.labels.name, s.value]))).toEqual({
      checked: 40,
      failed: 2,
      'quirks.bad "json"': 3, // escaped in the file, read back whole
    });
    expect(counts.every((s) => s.labels.kind === 'probe')).toBe(true);
  });

  it('a failed run: failed 1; no last success series when the kind never succeeded', async () => {
    const { samples } = parseExposition(await renderRunTextfile(run({ status: 'failed', lastSuccessSeconds: null })));
    expect(value(samples, 'atlas_run_failed', { kind: 'probe' })).toBe(1);
    expect(samples.some((s) => s.name === 'atlas_run_last_success_timestamp_seconds')).toBe(false);
  });

  it('numericLeaves keeps finite numbers only, in key order', () => {
    expect(numericLeaves({ a: 1, b: Number.NaN, c: { d: 2, e: null }, f: true })).toEqual([
      ['a', 1],
      ['c.d', 2],
    ]);
    expect(numericLeaves(null)).toEqual([]);
  });

  it('writes atlas_<kind>.prom atomically (no temp file left), replacing the previous one', async () => {
    const t = tempDir();
    try {
      const dir = join(t.dir, 'metrics');
      const path = await writeRunTextfile(dir, run({ durationSeconds: 1 }));
      expect(path).toBe(join(dir, 'atlas_probe.prom'));
      await writeRunTextfile(dir, run({ durationSeconds: 2 }));
      expect(readdirSync(dir)).toEqual(['atlas_probe.prom']);
      expect(value(parseExposition(readFileSync(path, 'utf8')).samples, 'atlas_run_duration_seconds')).toBe(2);
      await expect(writeRunTextfile(dir, run({ kind: '../evil' }))).rejects.toThrow(/run kind/);
    } finally {
      t.cleanup();
    }
  });
});

describe('run textfiles: every withRun writes one', () => {
  it('ok then failed: times from the runs row (injected clock); the failed run keeps the last success', async () => {
    const t = tempDir();
    try {
      const store = await openTestStore(t.dir);
      try {
        const clock = testClock('2026-11-25T12:00:00Z');
        await withRun(store, 'ingest_x402', { clock }, async (r) => {
          clock.advance(42_000);
          r.counts = { pages: 3, rows: { kept: 10, skipped: 1 } };
          r.steps = { fetch: 40_000 };
        });
        const file = join(t.dir, 'metrics', 'atlas_ingest_x402.prom');
        let s = parseExposition(readFileSync(file, 'utf8')).samples;
        const kind = { kind: 'ingest_x402' };
        const okAt = Date.parse('2026-11-25T12:00:42Z') / 1000;
        expect(value(s, 'atlas_run_duration_seconds', kind)).toBe(42);
        expect(value(s, 'atlas_run_last_success_timestamp_seconds', kind)).toBe(okAt);
        expect(value(s, 'atlas_run_failed', kind)).toBe(0);
        expect(value(s, 'atlas_run_count', { ...kind, name: 'rows.kept' })).toBe(10);
        expect(value(s, 'atlas_run_step_duration_seconds', { ...kind, step: 'fetch' })).toBe(40);

        clock.advance(3_600_000);
        await expect(
          withRun(store, 'ingest_x402', { clock }, async (r) => {
            clock.advance(5_000);
            r.counts = { pages: 1 };
            throw new Error('registry down');
          }),
        ).rejects.toThrow('registry down');
        s = parseExposition(readFileSync(file, 'utf8')).samples;
        expect(value(s, 'atlas_run_failed', kind)).toBe(1);
        expect(value(s, 'atlas_run_duration_seconds', kind)).toBe(5);
        expect(value(s, 'atlas_run_last_success_timestamp_seconds', kind)).toBe(okAt);
        expect(value(s, 'atlas_run_count', { ...kind, name: 'pages' })).toBe(1);
        expect(readdirSync(join(t.dir, 'metrics'))).toEqual(['atlas_ingest_x402.prom']);
      } finally {
        store.close();
      }
    } finally {
      t.cleanup();
    }
  });

  it('an in-memory store writes no textfile and the run still records', async () => {
    const store = await openStore(':memory:');
    try {
      await migrate(store, new Date('2026-11-25T12:00:00Z'));
      const out = await withRun(store, 'compute', { clock: testClock('2026-11-25T12:00:00Z') }, async () => 7);
      expect(out).toBe(7);
      // dirname(':memory:') is '.': without the guard a metrics folder would appear in the working folder
      expect(existsSync(join(process.cwd(), 'metrics'))).toBe(false);
    } finally {
      store.close();
    }
  });
});
