import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { PROJECT_ROOT } from '../core/paths.ts';
import { buildFleetView, createState } from './model.ts';
import { defaultTimeline } from './timeline.ts';
import type { Fleet, FleetOptions } from './types.ts';
import { encodeOptions, type StartMessage } from './wire.ts';

/**
 * The same fleet in a child process, for benchmarks: the fleet's CPU (building and encoding payment
 * requests for 20k+ endpoints) and its sockets then do not share the prober's event loop or
 * descriptor table. The parent keeps a mirror of the model (the plan is deterministic), so
 * `endpoints`, `expected`, `listed` and the URLs are available synchronously as in-process.
 *
 * Time: the child's clock is fixed at the parent's clock() at start and moved by `syncClock()`
 * (or follows the system clock with `childClock: 'system'`). setListed/setDoc/setRegistryQuirks are
 * forwarded over IPC (fire-and-forget, ordered); `requestCount()` is the child's figure as of its
 * last report (every 500 ms).
 */
export interface FleetProcess extends Fleet {
  readonly pid: number;
  /** Send the parent's clock() to the child; resolves once the child has applied it. */
  syncClock(): Promise<void>;
  /** The child's figures as of its last report (every 500 ms and on each syncClock ack). */
  childStats(): ChildStats;
}

export interface ChildStats {
  requests: number;
  /** process.cpuUsage() of the child, in microseconds. */
  cpu: { user: number; system: number };
  rss: number;
}

const CHILD = fileURLToPath(new URL('./child.ts', import.meta.url));

export async function startFleetProcess(
  opts: FleetOptions & { childClock?: 'fixed' | 'system'; startTimeoutMs?: number },
): Promise<FleetProcess> {
  const { childClock = 'fixed', startTimeoutMs = 30_000, ...fleetOpts } = opts;
  const epoch = fleetOpts.epoch ?? fleetOpts.clock();
  const timeline = defaultTimeline(epoch, fleetOpts.timeline);
  const child: ChildProcess = fork(CHILD, [], {
    cwd: PROJECT_ROOT,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    serialization: 'json',
  });
  let stats: ChildStats = { requests: 0, cpu: { user: 0, system: 0 }, rss: 0 };
  const acks = new Map<number, () => void>();
  let nextId = 1;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ports = await new Promise<{ port: number; deadPort: number }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('fleet child did not start in time')), startTimeoutMs);
    child.on('message', (m: { type: string; port?: number; deadPort?: number; message?: string } & Partial<ChildStats>) => {
      if (m.requests !== undefined && m.cpu && m.rss !== undefined) stats = { requests: m.requests, cpu: m.cpu, rss: m.rss };
      if (m.type === 'ready') {
        clearTimeout(timer);
        resolve({ port: m.port!, deadPort: m.deadPort! });
      } else if (m.type === 'ack') {
        const id = (m as { id?: number }).id ?? -1;
        acks.get(id)?.();
        acks.delete(id);
      } else if (m.type === 'error') {
        clearTimeout(timer);
        reject(new Error(`fleet child: ${m.message}`));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`fleet child exited with code ${code} before it was ready`));
    });
    const start: StartMessage = {
      type: 'start',
      options: encodeOptions(fleetOpts, epoch, timeline),
      now: fleetOpts.clock().toISOString(),
      clock: childClock,
    };
    child.send(start);
  }).catch(async (e: unknown) => {
    child.kill('SIGKILL');
    await exited;
    throw e;
  });

  const state = createState({ ...fleetOpts, epoch }, ports);
  const send = (m: unknown): Promise<void> =>
    new Promise((resolve, reject) => (child.connected ? child.send(m as never, (err) => (err ? reject(err) : resolve())) : resolve()));
  const view = buildFleetView(state, {
    forward: (msg) => void send(msg).catch(() => {}),
    requestCount: () => stats.requests,
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        await send({ type: 'close' }).catch(() => {});
        const t = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(t);
      }
    },
  });
  return Object.assign(view, {
    pid: child.pid ?? -1,
    childStats: () => stats,
    syncClock: () =>
      new Promise<void>((resolve, reject) => {
        const id = nextId++;
        acks.set(id, resolve);
        send({ type: 'setNow', at: fleetOpts.clock().toISOString(), id }).catch(reject);
      }),
  });
}
