// profile: probe only, against the fleet child
import { fork } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fixedClock } from '../../pipeline/core/clock.ts';
import { defaultConfig } from '../../pipeline/core/config.ts';
import { silentLogger } from '../../pipeline/core/log.ts';
import { resolvePaths } from '../../pipeline/core/paths.ts';
import { runProbe } from '../../pipeline/probe/index.ts';
import { migrate, openStore } from '../../pipeline/store/index.ts';
import { seedForExp } from './_exp_seed.ts';
const child = fork(new URL('./probe-fleet-child.ts', import.meta.url).pathname, ['4000', '7', '20', '300', '0.05', '10000'], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const info = await new Promise<any>((r) => child.once('message', r));
const dir = mkdtempSync(join(tmpdir(), 'exp5-'));
const store = await openStore(join(dir, 'a.duckdb'));
const now = new Date('2026-11-25T12:10:00Z');
await migrate(store, now);
await seedForExp(store, info.endpoints, dir);
const cfg = defaultConfig();
cfg.probe.allowPrivate = true;
cfg.probe.resolve = { '*.fleet.test': '127.0.0.1' };
const ctx = { clock: fixedClock(now), paths: resolvePaths(dir), config: cfg, log: silentLogger, secret: 'x'.repeat(20) };
if (process.argv[2] === 'bare') {
  const { bareLoopExp } = await import('./_exp_bare.ts');
  const c1 = process.cpuUsage(); const t1 = performance.now();
  const r = await bareLoopExp(info.endpoints, 64, 2000, 2);
  const cpu1 = process.cpuUsage(c1);
  console.log(`bare ${info.endpoints.length} in ${(performance.now() - t1).toFixed(0)} ms; cpu ${((cpu1.user + cpu1.system) / 1000 / info.endpoints.length).toFixed(2)} ms/req`, r.failed);
  store.close(); child.send('close'); process.exit(0);
}
const c0 = process.cpuUsage();
const t0 = performance.now();
const s = await runProbe(ctx, store, { concurrency: 64, timeoutMs: 2000 });
const cpu = process.cpuUsage(c0);
console.log(`probe ${s.counts.probed} in ${(performance.now() - t0).toFixed(0)} ms; cpu user ${(cpu.user / 1000).toFixed(0)} ms sys ${(cpu.system / 1000).toFixed(0)} ms => ${((cpu.user + cpu.system) / 1000 / s.counts.probed).toFixed(2)} ms/check`);
store.close();
child.send('close');
