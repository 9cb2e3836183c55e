import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { CheckWriter } from '../../pipeline/probe/check-writer.ts';
import { normalizeTerms } from '../../pipeline/x402/terms.ts';
import { migrate, openStore } from '../../pipeline/store/index.ts';

const n = Number(process.argv[2] ?? 20000);
const dir = mkdtempSync(join(tmpdir(), 'exp3-'));
const store = await openStore(join(dir, 'a.duckdb'));
await migrate(store, new Date());
const w = new CheckWriter(store, { batchSize: 1000, flushMs: 1e9 });
await w.open();
const terms = normalizeTerms(2, [{ scheme: 'exact', network: 'eip155:8453', caip2: 'eip155:8453', asset: '0xabc', amount: '100', payTo: '0x1', maxTimeoutSeconds: 60 }], 'k');
const slot = new Date('2026-11-25T00:00:00Z');
let last = performance.now();
const t0 = last;
const c0 = process.cpuUsage();
for (let i = 0; i < n; i++) {
  void w.add({ serviceId: `cand_${i}`, operation: 'primary', slot, checkedAt: slot, status: 402, passed: true, reason: 'ok', rule: 'x402-mainnet/1', latencyMs: 1, ttfbMs: 1, runId: 'r', url: 'https://x', method: 'GET', bytes: 2, detail: null }, process.env.NOTERMS ? null : terms);
  if ((i + 1) % 1000 === 0) {
    await w.flush();
    if ((i + 1) % 5000 === 0) {
      const now = performance.now();
      console.log(i + 1, 'last 10 flushes', (now - last).toFixed(0), 'ms', 'rss', (process.memoryUsage.rss() / 2 ** 20).toFixed(0), 'heap', (process.memoryUsage().heapUsed / 2 ** 20).toFixed(0));
      last = now;
    }
  }
}
await w.close();
const cu = process.cpuUsage(c0);
console.log('total', (performance.now() - t0).toFixed(0), 'ms', 'cpu/row', ((cu.user + cu.system) / 1000 / n).toFixed(3));
const m = await store.all("SELECT current_setting('memory_limit') AS m, current_setting('threads') AS t");
console.log(m);
store.close();
