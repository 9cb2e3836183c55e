import { buildOpenApi } from '../../site/contract/openapi.ts';
import { join } from 'node:path';
import type { Hono } from 'hono';
import { defaultConfig, type Config } from '../../pipeline/core/config.ts';
import { silentLogger } from '../../pipeline/core/log.ts';
import { createApp } from '../../serve/app.ts';
import { closeDeps, createDeps, type AppDeps, type Mount } from '../../serve/deps.ts';
import { tempDir, testClock, type TestClock } from '../helpers/context.ts';
import { writeGeneration, type GenerationOptions, type ServiceSpec } from './fixture.ts';

export const T0 = '2026-11-25T12:00:00.000Z';
export const SECRET = 'test-secret-0123456789abcdef';

export interface Harness {
  dir: string;
  siteDir: string;
  inboxDir: string;
  clock: TestClock;
  config: Config;
  deps: AppDeps;
  app: Hono;
  /** `app.request` with a client address (the socket peer the node adapter would give). */
  req(path: string, init?: RequestInit, address?: string): Promise<Response>;
  json(path: string, init?: RequestInit, address?: string): Promise<{ status: number; body: any; res: Response }>;
  post(
    path: string,
    body: unknown,
    headers?: Record<string, string>,
    address?: string,
  ): Promise<{ status: number; body: any; res: Response }>;
  /** A new app over the same folders (a restart). */
  restart(): Promise<void>;
  publish(opts: Omit<GenerationOptions, 'now'> & { now?: Date }): void;
  close(): Promise<void>;
}

export interface HarnessOptions {
  services?: ServiceSpec[];
  generation?: Partial<GenerationOptions>;
  config?: (c: Config) => void;
  now?: string;
  mounts?: Mount[];
  /** Do not publish anything before start. */
  empty?: boolean;
  /** This server's replica id (default 'test'). */
  replicaId?: string;
  /** Run over another harness's folders and clock (a second replica); that harness removes the folder. */
  shared?: { dir: string; clock: TestClock };
}

export async function harness(opts: HarnessOptions = {}): Promise<Harness> {
  const tmp = opts.shared ? { dir: opts.shared.dir, cleanup: () => undefined } : tempDir('atlas-serve-');
  const siteDir = join(tmp.dir, 'public');
  const inboxDir = join(tmp.dir, 'inbox');
  const clock = opts.shared?.clock ?? testClock(opts.now ?? T0);
  const config = defaultConfig();
  // Request rate limits out of the way unless a test sets them (daily limits stay on).
  config.serve.rateLimits.anonymousPerMinute = 1_000_000;
  config.serve.rateLimits.keyedPerMinute = 1_000_000;
  opts.config?.(config);
  if (!opts.empty && !opts.shared)
    writeGeneration(siteDir, { generation: 'g1', now: clock(), services: opts.services ?? [], ...opts.generation });
  const make = () =>
    createDeps({
      clock,
      config,
      secret: SECRET,
      log: silentLogger,
      siteDir,
      inboxDir,
      replicaId: opts.replicaId ?? 'test',
      mounts: opts.mounts ?? [],
      openapi: buildOpenApi,
    });
  let deps = await make();
  let app = createApp(deps);
  const h: Harness = {
    dir: tmp.dir,
    siteDir,
    inboxDir,
    clock,
    config,
    get deps() {
      return deps;
    },
    get app() {
      return app;
    },
    req: (path, init, address = '198.51.100.7') =>
      Promise.resolve(app.request(path, init, { incoming: { socket: { remoteAddress: address } } })),
    async json(path, init, address) {
      const res = await h.req(path, init, address);
      const text = await res.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON: keep the text for the assertion message
      }
      return { status: res.status, body, res };
    },
    post(path, body, headers = {}, address) {
      return h.json(
        path,
        {
          method: 'POST',
          body: typeof body === 'string' ? body : JSON.stringify(body),
          headers: { 'Content-Type': 'application/json', ...headers },
        },
        address,
      );
    },
    async restart() {
      await closeDeps(deps);
      deps = await make();
      app = createApp(deps);
    },
    publish(p) {
      writeGeneration(siteDir, { now: clock(), ...p });
    },
    async close() {
      try {
        await closeDeps(deps);
      } finally {
        tmp.cleanup();
      }
    },
  } as Harness;
  return h;
}
