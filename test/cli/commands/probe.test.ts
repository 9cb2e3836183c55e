import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../../pipeline/store/index.ts';
import { spawn } from 'node:child_process';
import { PROJECT_ROOT } from '../../../pipeline/core/paths.ts';
import { runCli, runCliInProcess } from '../../helpers/cli.ts';
import { openTestStore, tempDir } from '../../helpers/context.ts';
import { startBehaviourServer, type BehaviourServer } from '../../pipeline/probe/behaviour-server.ts';
import { seedServices, type SeedService } from '../../pipeline/probe/seed.ts';

const NOW = '2026-11-25T12:10:00Z';

describe('atlas probe (CLI)', () => {
  let srv: BehaviourServer;
  beforeAll(async () => {
    srv = await startBehaviourServer();
  });
  afterAll(async () => {
    await srv.close();
  });

  async function setup(services: SeedService[]) {
    const t = tempDir();
    const store = await openTestStore(t.dir);
    try {
      await seedServices(store, services);
    } finally {
      store.close();
    }
    const config = join(t.dir, 'atlas.config.json');
    writeFileSync(config, JSON.stringify({ probe: { resolve: { '*.t.test': '127.0.0.1' } } }));
    return { t, config, base: ['--data', t.dir, '--config', config, '--now', NOW] };
  }

  async function rows(dir: string, sql: string) {
    const s = await openStore(join(dir, 'atlas.duckdb'));
    try {
      return await s.all<Record<string, unknown>>(sql);
    } finally {
      s.close();
    }
  }

  it('rejects bad option values with exit 2 and one line', async () => {
    const { t, base } = await setup([]);
    try {
      // Each value check is unit-tested in-process; here the CLI contract (exit 2, one line): the
      // first as a real process, the others through the same main() in this one.
      for (const [i, bad] of [
        ['--concurrency', '0'],
        ['--shard', '3/3'],
        ['--only', 'docs'],
        ['--worker'], // a queue worker needs cluster.postgres
      ].entries()) {
        const r = await (i === 0 ? runCli : runCliInProcess)([...base, 'probe', ...bad]);
        expect({ bad, code: r.code }).toEqual({ bad, code: 2 });
        expect(r.stderr.trim().split('\n')).toHaveLength(1);
      }
    } finally {
      t.cleanup();
    }
  }, 60_000);

  it('probes what is due once per slot; a rerun in the same slot does nothing; --all stores no second row', async () => {
    const { t, base } = await setup([
      { id: 'cand_a', ops: [{ url: srv.url('x402-v2', '/a'), rule: 'x402-mainnet/2' }] },
      { id: 'cand_b', ops: [{ url: srv.url('mcp-406', '/mcp'), rule: 'mcp-reach/3' }] },
      { id: 'svc_c', ops: [{ url: srv.url('x402-v1', '/c'), rule: 'reviewed/1', expected: [402] }] },
    ]);
    try {
      const first = await runCli([...base, 'probe', '--allow-private']);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stderr).toMatch(/^probe: 3\/3 due checked, 3 stored \(3 passed, 0 failed: ok=3\)/);
      // The first run is the process cron starts; the reruns go through the same main() in-process.
      const again = await runCliInProcess([...base, 'probe', '--allow-private', '--json']);
      expect(again.code, again.stderr).toBe(0);
      // One line per probe job: the calls (kind probe), then the documentation pages (kind docs).
      const lines = again.stderr
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .filter((l) => typeof l.msg === 'string' && l.msg.endsWith(' finished'));
      expect(lines).toEqual([
        expect.objectContaining({ level: 'info', msg: 'probe finished', kind: 'probe', due: 0, stored: 0 }),
        expect.objectContaining({ level: 'info', msg: 'docs finished', kind: 'docs', due: 0, stored: 0 }),
      ]);
      const all = await runCliInProcess([...base, 'probe', '--allow-private', '--all']);
      expect(all.code, all.stderr).toBe(0);
      expect(all.stderr).toMatch(/3\/3 due checked, 0 stored/);
      const n = await rows(t.dir, 'SELECT count(*)::INT AS n, count(DISTINCT (service_id, operation, slot))::INT AS k FROM checks');
      expect(n[0]).toEqual({ n: 3, k: 3 });
      // Each `atlas probe` records one run per probe job, each under its own kind.
      const runs = await rows(t.dir, 'SELECT kind, status, count(*)::INT AS n FROM runs GROUP BY ALL ORDER BY ALL');
      expect(runs).toEqual([
        { kind: 'docs', status: 'ok', n: 3 },
        { kind: 'probe', status: 'ok', n: 3 },
      ]);
      // The next hour's slot is due again for the hourly reviewed service only.
      const later = await runCliInProcess([
        '--data',
        t.dir,
        '--config',
        base[3]!,
        '--now',
        '2026-11-25T13:00:00Z',
        'probe',
        '--allow-private',
      ]);
      expect(later.stderr).toMatch(/^probe: 1\/1 due checked, 1 stored/);
    } finally {
      t.cleanup();
    }
  }, 60_000);

  it('without --allow-private the guard refuses the loopback fleet and nothing is sent', async () => {
    const { t, base } = await setup([{ id: 'cand_guard', ops: [{ url: srv.url('website', '/guarded'), rule: 'mcp-reach/3' }] }]);
    try {
      const before = srv.seen.filter((s) => s.host === 'website.t.test').length;
      const r = await runCliInProcess([...base, 'probe']);
      expect(r.code, r.stderr).toBe(0);
      const stored = await rows(t.dir, 'SELECT passed, reason, status FROM checks');
      expect(stored).toEqual([{ passed: false, reason: 'blocked_address', status: null }]);
      expect(srv.seen.filter((s) => s.host === 'website.t.test').length).toBe(before);
    } finally {
      t.cleanup();
    }
  }, 60_000);

  it('SIGKILL mid-run: committed checks survive, the rerun fills the gap with no duplicate and no lost slot', async () => {
    const services: SeedService[] = Array.from({ length: 400 }, (_, i) => ({
      id: `cand_k${i}`,
      ops: [{ url: srv.url('delay-40', `/k${i}`), rule: 'x402-mainnet/2' as const }],
    }));
    const { t, base } = await setup(services);
    try {
      const key = 'delay-40';
      const start = srv.requests.get(key) ?? 0;
      // The real CLI, spawned as cron would (test/helpers/cli.ts style), killed with SIGKILL mid-run.
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', join(PROJECT_ROOT, 'cli', 'main.ts'), ...base, 'probe', '--allow-private', '--concurrency', '4'],
        {
          cwd: PROJECT_ROOT,
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      const exited = new Promise<number | null>((r) => child.on('close', (code, signal) => r(signal ? -1 : code)));
      // Wait until a good share of requests was served (so several batches were flushed), then kill -9.
      await new Promise<void>((resolve, reject) => {
        const timer = setInterval(() => {
          if ((srv.requests.get(key) ?? 0) - start >= 200) {
            clearInterval(timer);
            resolve();
          }
        }, 5);
        child.on('close', () => {
          clearInterval(timer);
          reject(new Error('probe finished before it could be killed'));
        });
      });
      child.kill('SIGKILL');
      expect(await exited).toBe(-1);
      const partial = await rows(t.dir, 'SELECT count(*)::INT AS n FROM checks');
      expect(partial[0]!.n as number).toBeGreaterThan(0);
      expect(partial[0]!.n as number).toBeLessThan(400);
      const killedRun = await rows(t.dir, 'SELECT status, finished_at FROM runs');
      expect(killedRun).toEqual([{ status: 'running', finished_at: null }]);
      const rerun = await runCliInProcess([...base, 'probe', '--allow-private', '--concurrency', '32']);
      expect(rerun.code, rerun.stderr).toBe(0);
      const after = await rows(
        t.dir,
        'SELECT count(*)::INT AS n, count(DISTINCT (service_id, operation, slot))::INT AS k, count(DISTINCT run_id)::INT AS runs FROM checks',
      );
      expect(after[0]).toEqual({ n: 400, k: 400, runs: 2 });
      // The rerun closed the killed run as abandoned (pipeline/store/runs.ts): nothing stays `running`.
      // The rerun records its calls' run and its documentation run (nothing due) under their kinds.
      const runs = await rows(t.dir, 'SELECT kind, status, error FROM runs ORDER BY kind, status');
      expect(runs).toEqual([
        { kind: 'docs', status: 'ok', error: null },
        {
          kind: 'probe',
          status: 'failed',
          error: expect.stringMatching(/^abandoned: the process ended before the run finished \(found by run probe_/),
        },
        { kind: 'probe', status: 'ok', error: null },
      ]);
      const terms = await rows(
        t.dir,
        'SELECT count(*)::INT AS n, count(DISTINCT (service_id, operation, slot))::INT AS k FROM payment_terms',
      );
      expect(terms[0]).toEqual({ n: 400, k: 400 });
    } finally {
      t.cleanup();
    }
  }, 180_000); // 400 services probed by two CLI runs, one of them a child process
});
