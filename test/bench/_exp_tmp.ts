import { fork } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import pLimit from 'p-limit';
import { createProbeAgent, safeFetch, buildRequest } from '../../pipeline/probe/index.ts';

const child = fork('/work/main/test/bench/probe-fleet-child.ts', ['3000', '7', '20', '300', '0.05', '10000'], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const info = await new Promise<any>((r) => child.once('message', r));
const eps = info.endpoints as any[];
const mode = process.argv[2];
const agent = createProbeAgent({ timeoutMs: 2000, maxHeaderBytes: 128 * 1024, allowPrivate: true, resolveMap: { '*.fleet.test': '127.0.0.1' }, connectionsPerOrigin: 2 });
const limit = pLimit(64);
const c0 = process.cpuUsage();
const t0 = performance.now();
let peak = 0;
const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 50);
const reasons: Record<string, number> = {};
await Promise.all(eps.map((e) => limit(async () => {
  const op = { serviceId: 'x', operation: 'p', kind: 'call', url: e.url, method: e.method, expectedStatuses: [], passRule: e.protocol === 'mcp' ? 'mcp-reach/3' : 'x402-mainnet/1', intervalHours: 24, protocol: e.protocol, slot: new Date(0) } as any;
  if (mode === 'bare') {
    const { request } = await import('undici');
    try {
      const res = await request(e.url, { dispatcher: agent, method: e.method, headers: { accept: 'application/json' }, body: e.method === 'POST' ? '{}' : null, signal: AbortSignal.timeout(2000), reset: true });
      await res.body.dump({ limit: 256 * 1024 }).catch(() => undefined);
      reasons[res.statusCode] = (reasons[res.statusCode] ?? 0) + 1;
    } catch (err) { reasons['err'] = (reasons['err'] ?? 0) + 1; }
    return;
  }
  const req = buildRequest(op, { userAgent: 'a', contactUrl: 'https://x' });
  if (mode === 'nobody') req.wantBody = () => false;
  const r = await safeFetch(req, { timeoutMs: 2000, maxBodyBytes: 256 * 1024, maxHeaderBytes: 128 * 1024, allowPrivate: true, resolveMap: { '*.fleet.test': '127.0.0.1' }, dispatcher: agent });
  const k = r.ok ? String(r.status) : r.reason;
  reasons[k] = (reasons[k] ?? 0) + 1;
})));
clearInterval(timer);
const cu = process.cpuUsage(c0);
console.log(mode, ((cu.user + cu.system) / 1000 / eps.length).toFixed(2), 'ms/req cpu', ((eps.length * 1000) / (performance.now() - t0)).toFixed(1), 'req/s', 'peak', (peak / 2 ** 20).toFixed(0), 'MB', JSON.stringify(reasons));
await agent.close();
child.send('close');
