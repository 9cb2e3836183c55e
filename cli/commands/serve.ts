import type { Command } from 'commander';
import { publicBaseUrl } from '../../pipeline/core/config.ts';
import { AtlasError } from '../../pipeline/core/errors.ts';
import { sanitizeReplicaId } from '../../site/contract/inbox-records.ts';
import { startServer } from '../../serve/server.ts';
import { buildServerJson } from '../../site/discovery/index.ts';
import { action, parseIntOption } from './util.ts';

interface ServeOptions {
  port?: number;
  host?: string;
  site?: string;
  replica?: string;
  printServerJson?: boolean;
}

/** A replica id names this server's inbox logs (`<kind>-<id>.jsonl`): refused rather than rewritten. */
function parseReplica(value: string): string {
  if (sanitizeReplicaId(value) !== value) {
    throw new AtlasError('bad_usage', `--replica must be 1 to 64 of A-Z a-z 0-9 _ . - (got ${JSON.stringify(value)})`);
  }
  return value;
}

/**
 * `atlas serve [--port 8787] [--host 127.0.0.1] [--site DIR] [--replica ID]`: the HTTP API, /mcp
 * and the pages over the published tree (default `<data>/public`). `--port 0` picks a free port;
 * the URL is printed on stdout. `--replica` names this server's inbox logs (default env
 * ATLAS_REPLICA_ID, else the hostname); replicas over one data folder need distinct ids and follow
 * each other's logs (docs/notes/replicas.md). SIGINT/SIGTERM close the server cleanly (in-flight
 * requests finish, logs close).
 * `--print-server-json` prints this instance's MCP registry entry (the /server.json body, from
 * serve.baseUrl and serve.registryName) and exits without serving.
 */
export function register(program: Command): void {
  program
    .command('serve')
    .description('serve the HTTP API, /mcp and the pages from the published tree')
    .option('--port <n>', 'port (0: any free port; default from config, 8787)', parseIntOption('--port', 0, 65535))
    .option('--host <host>', 'address to listen on (default from config, 127.0.0.1)')
    .option('--site <dir>', 'published tree (default <data>/public)')
    .option(
      '--replica <id>',
      'replica id, distinct per server over one data folder (default ATLAS_REPLICA_ID, else the hostname)',
      parseReplica,
    )
    .option('--print-server-json', "print this instance's MCP registry server.json and exit")
    .action(
      action(async (ctx, opts: ServeOptions) => {
        if (opts.printServerJson) {
          const doc = buildServerJson({ baseUrl: publicBaseUrl(ctx.config), registryName: ctx.config.serve.registryName });
          process.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
          return;
        }
        const server = await startServer(ctx, {
          port: opts.port ?? ctx.config.serve.port,
          host: opts.host ?? ctx.config.serve.host,
          ...(opts.site ? { siteDir: opts.site } : {}),
          ...(opts.replica ? { replicaId: opts.replica } : {}),
        });
        process.stdout.write(`${server.url}\n`);
        ctx.log.info('serve: listening', { url: server.url });
        await new Promise<void>((resolve) => {
          const stop = (signal: string) => {
            process.off('SIGINT', onInt);
            process.off('SIGTERM', onTerm);
            ctx.log.info('serve: shutting down', { signal });
            server.close().then(resolve, resolve);
          };
          const onInt = () => stop('SIGINT');
          const onTerm = () => stop('SIGTERM');
          process.on('SIGINT', onInt);
          process.on('SIGTERM', onTerm);
        });
      }),
    );
}
