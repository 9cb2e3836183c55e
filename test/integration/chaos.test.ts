import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../pipeline/core/clock.ts';
import { PROJECT_ROOT } from '../../pipeline/core/paths.ts';
import { slotStart } from '../../pipeline/core/slots.ts';
import { fleetConfig, startFleet, writeFleetListings } from '../../pipeline/fleet/index.ts';
import { mulberry32 } from '../../pipeline/fleet/prng.ts';
import { selectDue } from '../../pipeline/probe/index.ts';
import { ABANDONED_PREFIX, openStore, type Store } from '../../pipeline/store/index.ts';
import { currentGeneration, generationDir, isSealedGeneration, verifyTree } from '../../pipeline/publish/index.ts';
import { runCli } from '../helpers/cli.ts';
import { tempDir, testClock } from '../helpers/context.ts';

/**
 * Crash safety of every step (docs/notes/crash-safety.md), on real parts: the fleet on loopback,
 * `atlas cycle` in a child process per simulated cron tick across simulated days, SIGKILLed at a
 * random delay (seeded PRNG) in a share of the ticks, `atlas serve` killed and restarted now and
 * then. After every tick: `current` is a complete, signed generation; after every tick that
 * finished: nothing is due any more for that instant (every slot that ran has its check row).
 * At the end: at most one check row per (service, operation, slot), no run `running`, every killed
 * cycle `failed` with its abandoned reason (or never started), no half generation older than
 * `current`, `atlas verify --tree` and `atlas verify` pass, the restarted server answers from the
 * last complete generation, and `atlas ingest inbox` loads past a torn line.
 *
 * Knobs (environment): ATLAS_CHAOS_SEED (default FIXED_SEED, so `npm test` runs the same kills
 * every time; `random` draws one, which `npm run test:chaos` does; the seed is printed either way and
 * a failure is replayed with ATLAS_CHAOS_SEED=<seed>), ATLAS_CHAOS_KILLS (default 3),
 * ATLAS_CHAOS_DAYS (default 2), ATLAS_CHAOS_STEP_HOURS (simulated hours between ticks, default 24).
 */
const FIXED_SEED = 20261127;
const SEED_ENV = process.env.ATLAS_CHAOS_SEED;
const SEED = SEED_ENV === 'random' ? Math.floor(Math.random() * 2 ** 31) : SEED_ENV ? Number(SEED_ENV) : FIXED_SEED;
const KILLS = Number(process.env.ATLAS_CHAOS_KILLS ?? 3);
const DAYS = Number(process.env.ATLAS_CHAOS_DAYS ?? 2);
const STEP_HOURS = Number(process.env.ATLAS_CHAOS_STEP_HOURS ?? 24);
const START = new Date('2026-11-20T00:02:00Z');
/** A rerun after a kill comes one cron tick later, still inside the same hourly probe slot. */
const CRON_MS = 5 * 60_000;

interface Attempt {
  at: string;
  killed: boolean;
  /** Delay of the kill (ms) after spawn or after start-up (`from`), for killed attempts. */
  delayMs?: number;
  from?: 'spawn' | 'cycle';
  exitCode?: number | null;
  ms: number;
  /** Where the kill landed, from the runs the next run closed: startup, or the innermost run kinds. */
  phase?: string;
  walLeft?: boolean;
  serverKilled?: boolean;
}

function spawnCycle(data: string, config: string, listings: string, at: string): ChildProcess {
  return spawn(
    process.execPath,
    ['--import', 'tsx', join(PROJECT_ROOT, 'test', 'integration', 'chaos-cycle-child.ts'), data, config, listings, at],
    { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
}

/**
 * Run one tick. `kill`: SIGKILL it `afterMs` after spawn (`from: 'spawn'`, lands in start-up) or
 * after it printed that start-up is over (`from: 'cycle'`). Resolves with how it ended and how long
 * the cycle itself ran (from that line to the exit).
 */
function tick(
  child: ChildProcess,
  kill?: { from: 'spawn' | 'cycle'; afterMs: number },
): Promise<{ code: number | null; killed: boolean; stderr: string; cycleMs: number | null }> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    let out = '';
    let killed = false;
    let cycleAt: number | null = null;
    let timer: NodeJS.Timeout | null = null;
    const arm = () => {
      timer = setTimeout(() => {
        killed = child.kill('SIGKILL');
      }, kill!.afterMs);
    };
    if (kill?.from === 'spawn') arm();
    child.stderr!.on('data', (d) => (stderr += d));
    child.stdout!.on('data', (d) => {
      out += d;
      if (cycleAt === null && out.includes('cycle\n')) {
        cycleAt = performance.now();
        if (kill?.from === 'cycle') arm();
      }
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      resolve({ code, killed: killed && signal === 'SIGKILL', stderr, cycleMs: cycleAt === null ? null : performance.now() - cycleAt });
    });
  });
}

interface Server {
  child: ChildProcess;
  url: string;
}

function startServe(data: string, config: string): Promise<Server> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(PROJECT_ROOT, 'cli', 'main.ts'), '--data', data, '--config', config, 'serve', '--port', '0'],
    { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /^(http:\/\/127\.0\.0\.1:\d+)\n/m.exec(out);
      if (m) resolve({ child, url: m[1]! });
    });
    child.stderr!.on('data', (d) => (err += d));
    child.on('close', (code) => reject(new Error(`atlas serve ended (${code}) before it listened: ${err}`)));
  });
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.on('close', () => resolve());
    child.kill('SIGKILL');
  });

async function readOnly<T>(db: string, fn: (s: Store) => Promise<T>): Promise<T> {
  const s = await openStore(db, { readOnly: true });
  try {
    return await fn(s);
  } finally {
    s.close();
  }
}

async function served(url: string): Promise<string | null> {
  const res = await fetch(`${url}/healthz`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { generation: string | null }).generation;
}

describe('chaos: kill -9 at random points of `atlas cycle` and `atlas serve`', () => {
  it('leaves nothing half-done', async () => {
    const prng = mulberry32(SEED);
    const ticks = Math.floor((DAYS * 24) / STEP_HOURS) + 1;
    // Each kill lands on a random tick; a tick may take several.
    const killsAt = new Array<number>(ticks).fill(0);
    for (let k = 0; k < KILLS; k++) killsAt[Math.floor(prng() * ticks)]! += 1;
    console.log(`chaos: seed ${SEED}, ${KILLS} kills over ${ticks} ticks (${DAYS} simulated days, every ${STEP_HOURS} h)`);

    const t = tempDir('atlas-chaos-');
    const clock = testClock(START);
    const fleet = await startFleet({ clock, slowMs: 3_000, sseIntervalMs: 50 });
    const data = join(t.dir, 'data');
    const db = join(data, 'atlas.duckdb');
    const publicDir = join(data, 'public');
    const listings = join(t.dir, 'listings');
    const config = join(t.dir, 'atlas.config.json');
    const attempts: Attempt[] = [];
    let server: Server | null = null;
    let feedbackCreated = 0;
    try {
      writeFleetListings(fleet, listings, { approvedAt: new Date('2026-11-01T00:00:00Z') });
      writeFileSync(
        config,
        JSON.stringify({
          ...fleetConfig(fleet, { registries: true }),
          probe: { ...fleetConfig(fleet).probe, timeoutMs: 1_500 },
        }),
      );
      let typicalMs = 5_000; // replaced by the measured length of each finished cycle

      const afterEveryTick = async (a: Attempt) => {
        // A reader resolving `current` always finds a complete, signed generation.
        const gen = await currentGeneration(publicDir);
        if (gen) {
          expect(await isSealedGeneration(generationDir(publicDir, gen)), `${a.at}: current ${gen} sealed`).toBe(true);
          const v = await verifyTree(join(publicDir, 'current'));
          expect(v.problems, `${a.at}: current verifies`).toEqual([]);
        }
        if (a.killed) return;
        // A tick that finished probed everything due at its instant: nothing is left due, except an
        // operation whose interval that tick's compute changed (its new slot is due at the next
        // tick); that one has its check in the slot of the interval it was probed at.
        const at = new Date(a.at);
        const left = await readOnly(db, async (s) => {
          const out: string[] = [];
          for (const d of await selectDue(s, at)) {
            const [change] = await s.all<{ from_hours: number | null }>(
              `SELECT from_hours FROM interval_changes WHERE service_id = $1 AND operation = $2 AND changed_at = $3::TIMESTAMP`,
              [d.serviceId, d.operation, a.at],
            );
            if (change && !change.from_hours) continue; // first scheduled by this tick's compute
            if (change) {
              const [n] = await s.all<{ n: number }>(
                `SELECT count(*)::INT AS n FROM checks WHERE service_id = $1 AND operation = $2 AND slot = $3::TIMESTAMP`,
                [d.serviceId, d.operation, slotStart(at, change.from_hours!).toISOString()],
              );
              if (n?.n === 1) continue;
            }
            out.push(`${d.serviceId} ${d.operation} (${d.intervalHours} h)`);
          }
          return out;
        });
        expect(left, `${a.at}: due after a finished tick`).toEqual([]);
        // ... and published what is stored, a killed tick's checks included: the tree is not behind.
        const manifest = JSON.parse(readFileSync(join(publicDir, 'current', 'manifest.json'), 'utf8')) as { generated_at: string };
        const [latest] = await readOnly(db, (s) =>
          s.all<{ t: string | null }>(`SELECT strftime(max(checked_at), '%Y-%m-%dT%H:%M:%S.000Z') AS t FROM checks`),
        );
        if (latest?.t) expect(latest.t <= manifest.generated_at, `${a.at}: checks up to ${latest.t} published`).toBe(true);
      };

      for (let i = 0; i < ticks; i++) {
        const base = START.getTime() + i * STEP_HOURS * HOUR_MS;
        for (let j = 0; j <= killsAt[i]!; j++) {
          const at = new Date(base + j * CRON_MS);
          clock.set(at);
          const kill = j < killsAt[i]!;
          // One kill in ten lands in start-up (before the database is opened), the rest anywhere in
          // the cycle: uniform over the length of the last finished one.
          const from = prng() < 0.1 ? ('spawn' as const) : ('cycle' as const);
          const delayMs = kill ? Math.round(prng() * (from === 'spawn' ? 1_000 : typicalMs)) : undefined;
          const killServer = kill && server !== null && prng() < 0.4;
          const t0 = performance.now();
          const child = spawnCycle(data, config, listings, at.toISOString());
          if (killServer) setTimeout(() => void stop(server!.child), Math.round(prng() * typicalMs));
          const r = await tick(child, delayMs === undefined ? undefined : { from, afterMs: delayMs });
          const a: Attempt = {
            at: at.toISOString(),
            killed: r.killed,
            exitCode: r.code,
            ms: Math.round(performance.now() - t0),
            ...(delayMs !== undefined ? { delayMs, from } : {}),
            ...(killServer ? { serverKilled: true } : {}),
          };
          if (a.killed) a.walLeft = existsSync(`${db}.wal`);
          else {
            expect(r.code, `${a.at}: ${r.stderr.slice(-2000)}`).toBe(0);
            typicalMs = Math.round(r.cycleMs ?? typicalMs);
          }
          attempts.push(a);
          await afterEveryTick(a);
        }
        if (server && (server.child.exitCode !== null || server.child.signalCode !== null)) {
          // Restarted after a kill: it starts from the last complete generation.
          server = await startServe(data, config);
          expect(await served(server.url)).toBe(await currentGeneration(publicDir));
        }
        if (!server && (await currentGeneration(publicDir))) server = await startServe(data, config);
        if (server) {
          const res = await fetch(`${server.url}/api/v1/feedback`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ kind: 'other', note: `tick ${i}` }),
          });
          expect([201, 429]).toContain(res.status);
          if (res.status === 201) feedbackCreated += 1;
        }
      }

      // A server killed mid-append leaves a torn last line; the restarted server and the loader
      // both read past it (a SIGKILL rarely lands inside one small write, so the tear is made here).
      expect(server).not.toBeNull();
      await stop(server!.child);
      const inbox = join(data, 'inbox');
      const feedbackLog = readdirSync(inbox).find((f) => f.startsWith('feedback-'))!;
      appendFileSync(join(inbox, feedbackLog), '{"id":"fb_torn","kind":"oth');
      server = await startServe(data, config);
      const gen = await currentGeneration(publicDir);
      expect(await served(server.url)).toBe(gen);
      expect((await fetch(`${server.url}/api/v1/services?limit=1`)).status).toBe(200);
      const after = await fetch(`${server.url}/api/v1/feedback`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'other', note: 'after the tear' }),
      });
      expect([201, 429]).toContain(after.status);
      if (after.status === 201) feedbackCreated += 1;
      await stop(server.child);
      server = null;

      const ingest = await runCli(['--data', data, '--config', config, '--now', clock().toISOString(), 'ingest', 'inbox']);
      expect(ingest.code, ingest.stderr).toBe(0);

      // The invariants, in SQL over the database the killed processes left.
      const db_ = await readOnly(db, async (s) => ({
        dupChecks: await s.all(
          `SELECT service_id, operation, slot::VARCHAR AS slot, count(*)::INT AS n FROM checks GROUP BY ALL HAVING count(*) > 1`,
        ),
        dupTerms: await s.all(
          `SELECT service_id, operation, slot::VARCHAR AS slot, count(*)::INT AS n FROM payment_terms GROUP BY ALL HAVING count(*) > 1`,
        ),
        checks: await s.all<{ n: number }>(`SELECT count(*)::INT AS n FROM checks`),
        running: await s.all(`SELECT id FROM runs WHERE status = 'running'`),
        runs: await s.all<{ id: string; kind: string; status: string; at: string; error: string | null }>(
          `SELECT id, kind, status, strftime(started_at, '%Y-%m-%dT%H:%M:%S.000Z') AS at, error FROM runs ORDER BY started_at, id`,
        ),
        feedback: await s.all<{ n: number }>(`SELECT count(*)::INT AS n FROM feedback`),
      }));
      expect(db_.dupChecks, 'one check row per (service, operation, slot)').toEqual([]);
      expect(db_.dupTerms, 'one payment-terms row per (service, operation, slot)').toEqual([]);
      expect(db_.checks[0]!.n).toBeGreaterThan(0);
      expect(db_.running, 'no run left running').toEqual([]);
      expect(db_.feedback[0]!.n, 'every acknowledged feedback loaded, the torn line skipped').toBe(feedbackCreated);

      const ids = new Set(db_.runs.map((r) => r.id));
      for (const r of db_.runs) {
        if (r.status !== 'failed' || !r.error?.startsWith(ABANDONED_PREFIX)) continue;
        const finder = /found by run (\S+)\)$/.exec(r.error)?.[1];
        expect(finder && ids.has(finder), `${r.id}: found by an existing run`).toBe(true);
      }
      for (const a of attempts) {
        const mine = db_.runs.filter((r) => r.at === a.at);
        const cycles = mine.filter((r) => r.kind === 'cycle');
        if (!a.killed) {
          expect(
            cycles.map((c) => c.status),
            `${a.at}: one finished cycle`,
          ).toEqual(['ok']);
          continue;
        }
        // Killed: the cycle row never got written (killed at start-up), or it is closed as abandoned,
        // or the kill came after the cycle had finished (while the process closed the database).
        expect(cycles.length, `${a.at}: at most one cycle row`).toBeLessThanOrEqual(1);
        const abandoned = mine.filter((r) => r.status === 'failed' && r.error?.startsWith(ABANDONED_PREFIX));
        const inner = abandoned.map((r) => r.kind).filter((k) => k !== 'cycle');
        if (cycles[0]?.status === 'ok') {
          expect(abandoned, `${a.at}: a finished cycle has no abandoned run`).toEqual([]);
          a.phase = 'shut-down (cycle finished)';
        } else if (cycles.length) {
          expect(cycles[0]!.error, `${a.at}: the killed cycle is closed as abandoned`).toMatch(/^abandoned: /);
          a.phase = inner.length ? inner.join('+') : 'cycle (between runs)';
        } else a.phase = 'start-up (before the cycle row)';
      }

      // No half generation older than `current` survives (a later publish removed it), and the
      // tree and every figure check out with the CLI.
      const current = (await currentGeneration(publicDir))!;
      for (const g of readdirSync(join(publicDir, 'generations'))) {
        if (g < current) expect(await isSealedGeneration(generationDir(publicDir, g)), `generation ${g} sealed`).toBe(true);
      }
      const tree = await runCli(['--data', data, 'verify', '--tree', publicDir]);
      expect(tree.code, tree.stdout + tree.stderr).toBe(0);
      const figures = await runCli(['--data', data, '--config', config, 'verify']);
      expect(figures.code, figures.stdout + figures.stderr).toBe(0);

      const killed = attempts.filter((a) => a.killed);
      const phases: Record<string, number> = {};
      for (const a of killed) phases[a.phase!] = (phases[a.phase!] ?? 0) + 1;
      console.log(
        `chaos: seed ${SEED}: ${attempts.length} cycles, ${killed.length} killed (${killed.filter((a) => a.walLeft).length} left a WAL to replay), ` +
          `${attempts.filter((a) => a.serverKilled).length} server kills; kill phases ${JSON.stringify(phases)}; ` +
          `${db_.checks[0]!.n} checks, ${db_.runs.length} runs`,
      );
      for (const a of killed) console.log(`chaos: killed ${a.at} ${a.delayMs} ms after ${a.from}: ${a.phase}`);
      expect(killed.length).toBeGreaterThan(0);
    } catch (e) {
      console.log(`chaos: failed with seed ${SEED} (rerun with ATLAS_CHAOS_SEED=${SEED}); attempts: ${JSON.stringify(attempts)}`);
      throw e;
    } finally {
      if (server) await stop(server.child);
      await fleet.close();
      t.cleanup();
    }
  }, 600_000);
});
