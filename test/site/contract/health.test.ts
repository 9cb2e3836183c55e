import { describe, expect, it } from 'vitest';
import { HEALTH_PROBE_MAX_AGE_MS, healthStatus } from '../../../site/contract/health.ts';
import type { RunRecord } from '../../../site/contract/runs.ts';

const probe = (over: Partial<RunRecord>): RunRecord => ({
  id: 'r1',
  kind: 'probe',
  status: 'ok',
  scheduled_at: null,
  started_at: '2026-11-20T10:00:00.000Z',
  finished_at: '2026-11-20T10:01:00.000Z',
  ...over,
});

describe('healthStatus (the one health rule, publish and serve)', () => {
  const started = Date.parse('2026-11-20T10:00:00.000Z');
  it('tolerates one missed hour: the limit is two hourly check slots, whatever the cycle cadence', () => {
    expect(HEALTH_PROBE_MAX_AGE_MS).toBe(2 * 3_600_000);
  });
  it.each([
    ['no run', null, started, 'no_data'],
    ['fresh ok run', probe({}), started + 60_000, 'ok'],
    ['exactly at the limit', probe({}), started + HEALTH_PROBE_MAX_AGE_MS, 'ok'],
    ['past the limit', probe({}), started + HEALTH_PROBE_MAX_AGE_MS + 1, 'degraded'],
    ['failed run', probe({ status: 'failed' }), started + 60_000, 'degraded'],
    ['partial run', probe({ status: 'partial' }), started + 60_000, 'ok'],
  ] as const)('%s', (_name, run, nowMs, want) => {
    expect(healthStatus(run, new Date(nowMs))).toBe(want);
  });
});
