import { serve, type ServerType } from '@hono/node-server';
import { hostname } from 'node:os';
import type { AddressInfo } from 'node:net';
import type { Context } from '../pipeline/core/context.ts';
import { sanitizeReplicaId } from '../site/contract/inbox-records.ts';
import { createApp } from './app.ts';
import { closeDeps, createDeps, type AppDeps, type Mount } from './deps.ts';
import { serverParts } from './mounts.ts';

export interface StartOptions {
  port: number;
  host: string;
  /** Published tree root (default `<data>/public`). */
  siteDir?: string;
  /** This replica's inbox log suffix (default env ATLAS_REPLICA_ID, else the hostname). */
  replicaId?: string;
  /** Follow the other replicas' inbox logs: poll period (default 500 ms; docs/notes/replicas.md). */
  followIntervalMs?: number;
  /** Follow the `current` pointer: periodic check interval (default 2 s) plus fs.watch. */
  watchIntervalMs?: number;
  /** Extra route groups after the server's own parts (the bench's baseline route). */
  extraMounts?: Mount[];
}

export interface RunningServer {
  url: string;
  port: number;
  deps: AppDeps;
  close(): Promise<void>;
}

/**
 * `atlas serve`: load the current generation and the inbox indexes, mount the server's parts (MCP, pages),
 * listen (port 0 → any free port), follow the generation pointer and the other replicas' inbox
 * logs. `close()` stops accepting, lets in-flight requests finish, then closes the append logs.
 */
export async function startServer(ctx: Context, opts: StartOptions): Promise<RunningServer> {
  const parts = serverParts();
  const deps = await createDeps({
    clock: ctx.clock,
    config: ctx.config,
    secret: ctx.secret,
    log: ctx.log,
    siteDir: opts.siteDir ?? ctx.paths.publicDir,
    inboxDir: ctx.paths.inbox,
    replicaId: sanitizeReplicaId(opts.replicaId ?? process.env.ATLAS_REPLICA_ID ?? hostname()),
    mounts: [...parts.mounts, ...(opts.extraMounts ?? [])],
    openapi: parts.openapi,
  });
  if (!deps.site.peek()) ctx.log.warn('serve: no published generation yet; data endpoints answer 503 until `atlas publish` runs');
  deps.site.watch(opts.watchIntervalMs ?? 2000);
  deps.writes.follow({ clock: ctx.clock, log: ctx.log, ...(opts.followIntervalMs ? { intervalMs: opts.followIntervalMs } : {}) });
  const app = createApp(deps);
  let server: ServerType;
  try {
    server = await new Promise<ServerType>((resolve, reject) => {
      const s = serve({ fetch: app.fetch, port: opts.port, hostname: opts.host }, () => resolve(s));
      s.once('error', reject);
    });
  } catch (e) {
    await closeDeps(deps);
    throw e;
  }
  const port = (server.address() as AddressInfo).port;
  const shownHost = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  return {
    url: `http://${shownHost}:${port}`,
    port,
    deps,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Idle keep-alive sockets would hold close() open; busy ones get a grace period.
      const s = server as unknown as { closeIdleConnections?: () => void; closeAllConnections?: () => void };
      s.closeIdleConnections?.();
      const force = setTimeout(() => s.closeAllConnections?.(), 5000);
      force.unref();
      await closed;
      clearTimeout(force);
      await closeDeps(deps);
    },
  };
}
