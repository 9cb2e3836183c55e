import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseExposition, value } from '../../helpers/prom-text.ts';
import { computeAt, withDb } from './helpers.ts';

describe('compute writes its run textfile', () => {
  it('<data>/metrics/atlas_compute.prom: last success, duration, every step, the counts, not failed', async () => {
    await withDb(async (store, dir) => {
      const at = '2026-11-25T12:00:00.000Z';
      const summary = await computeAt(store, dir, at);
      const { types, samples } = parseExposition(readFileSync(join(dir, 'metrics', 'atlas_compute.prom'), 'utf8'));
      const kind = { kind: 'compute' };
      expect(types.get('atlas_run_last_success_timestamp_seconds')).toBe('gauge');
      // a fixed clock: the runs row starts and finishes at the same instant
      expect(value(samples, 'atlas_run_last_success_timestamp_seconds', kind)).toBe(Date.parse(at) / 1000);
      expect(value(samples, 'atlas_run_duration_seconds', kind)).toBe(0);
      expect(value(samples, 'atlas_run_failed', kind)).toBe(0);
      const steps = samples.filter((s) => s.name === 'atlas_run_step_duration_seconds').map((s) => s.labels.step);
      expect(steps.sort()).toEqual(Object.keys(summary.steps_ms).sort());
      expect(steps).toEqual(expect.arrayContaining(['schedule', 'evidence', 'terms', 'derived', 'directory', 'commit']));
      expect(value(samples, 'atlas_run_count', { ...kind, name: 'evidence_rows' })).toBe(summary.evidence_rows);
      expect(value(samples, 'atlas_run_count', { ...kind, name: 'directory_in' })).toBe(summary.directory_in);
    });
  });
});
