import type { Command } from 'commander';
import { AtlasError } from '../../pipeline/core/errors.ts';
import type { Context } from '../../pipeline/core/context.ts';
import {
  catalogPresence,
  ingestMcp,
  ingestX402,
  type McpIngestResult,
  presenceLines,
  reasonLines,
  type X402IngestResult,
} from '../../pipeline/ingest/index.ts';
import { migrate, withStore } from '../../pipeline/store/index.ts';
import { action, parseIntOption } from './util.ts';

/** Same rule as the config file's registry names. */
const NAME_RE = /^[a-z0-9-]{1,40}$/;

/**
 * `atlas ingest x402` and `atlas ingest mcp`: one registry source each, one transaction each;
 * `atlas ingest registries`: every enabled source of the config, then the catalogs' provenance counts.
 */
export function register(ingest: Command): void {
  ingest
    .command('x402')
    .description(
      'x402 discovery registry (…/discovery/resources format): a URL, or a file: a page, pages, a dump, bare items; JSON or JSON Lines, gzip or not',
    )
    .requiredOption('--source <url|file>', 'list endpoint URL or snapshot file')
    .option('--registry <name>', 'registry name recorded with each service (a-z, 0-9, -)', 'cdp')
    .option('--page-size <n>', 'limit requested per page', parseIntOption('--page-size', 1, 1000))
    .option(
      '--max-pages <n>',
      'stop after this many pages (the sweep then counts as incomplete)',
      parseIntOption('--max-pages', 1, 100_000),
    )
    .action(
      action(async (ctx, opts: { source: string; registry: string; pageSize?: number; maxPages?: number }) => {
        checkName(opts.registry);
        const r = await withStore(ctx.paths.db, async (store) => {
          await migrate(store, ctx.clock());
          return ingestX402(ctx, store, { source: opts.source, registry: opts.registry, pageSize: opts.pageSize, maxPages: opts.maxPages });
        });
        printX402(ctx, r);
      }),
    );

  ingest
    .command('registries')
    .description(
      'every enabled registry source of the config (`registries`), in order, one transaction each; then which catalogs list the discovered services',
    )
    .option('--only <name>', 'only the source with this name')
    .action(
      action(async (ctx, opts: { only?: string }) => {
        const sources = ctx.config.registries.filter((r) => r.enabled && (opts.only === undefined || r.name === opts.only));
        if (sources.length === 0)
          throw new AtlasError(
            'bad_usage',
            opts.only ? `no enabled registry source named ${opts.only} in the config` : 'no enabled registry source in the config',
          );
        const presence = await withStore(ctx.paths.db, async (store) => {
          await migrate(store, ctx.clock());
          for (const src of sources) {
            if (src.kind === 'x402') printX402(ctx, await ingestX402(ctx, store, { source: src.source, registry: src.name }));
            else printMcp(ctx, await ingestMcp(ctx, store, { source: src.source, registry: src.name }));
          }
          return catalogPresence(store);
        });
        for (const line of presenceLines(presence)) ctx.log.info(line, ctx.log.json ? { presence } : undefined);
      }),
    );

  ingest
    .command('mcp')
    .description(
      'MCP registry (/v0.1/servers format): a URL (incremental after the first sync), or a file: a page, pages, or every version of every entry; JSON or JSON Lines, gzip or not',
    )
    .requiredOption('--source <url|file>', 'list endpoint URL or snapshot file')
    .option('--registry <name>', 'registry name recorded with each service (a-z, 0-9, -)', 'official')
    .option('--full', 'ignore the last sync time: read everything and delist what is absent')
    .option('--page-size <n>', 'limit requested per page', parseIntOption('--page-size', 1, 100))
    .option(
      '--max-pages <n>',
      'stop after this many pages (the sweep then counts as incomplete)',
      parseIntOption('--max-pages', 1, 100_000),
    )
    .option('--delay-ms <n>', 'pause between page requests', parseIntOption('--delay-ms', 0, 60_000))
    .action(
      action(
        async (ctx, opts: { source: string; registry: string; full?: boolean; pageSize?: number; maxPages?: number; delayMs?: number }) => {
          checkName(opts.registry);
          const r = await withStore(ctx.paths.db, async (store) => {
            await migrate(store, ctx.clock());
            return ingestMcp(ctx, store, {
              source: opts.source,
              registry: opts.registry,
              full: !!opts.full,
              pageSize: opts.pageSize,
              maxPages: opts.maxPages,
              delayMs: opts.delayMs,
            });
          });
          printMcp(ctx, r);
        },
      ),
    );
}

function checkName(name: string): void {
  if (!NAME_RE.test(name)) throw new AtlasError('bad_usage', `--registry must be 1–40 of a-z, 0-9 and - (got ${JSON.stringify(name)})`);
}

function printX402(ctx: Context, r: X402IngestResult): void {
  const c = r.counts;
  const elsewhere = c.still_listed_elsewhere > 0 ? `, ${c.still_listed_elsewhere} dropped here but listed by another catalog` : '';
  ctx.log.info(
    `x402 ${r.registry}: ${c.seen} resources from ${c.pages} page(s) (${c.inserted} new, ${c.updated} updated, ${c.relisted} relisted, ${c.delisted_missing} delisted${elsewhere}${c.complete ? '' : ', sweep incomplete'}); skipped ${c.invalid_item + c.invalid_url + c.unknown_type + c.mcp_no_endpoint}, duplicates ${c.duplicates}`,
    ctx.log.json ? { ...c, run: r.runId } : undefined,
  );
  for (const line of reasonLines(`x402 ${r.registry}`, c.skipped, c.noted)) ctx.log.info(line);
}

function printMcp(ctx: Context, r: McpIngestResult): void {
  const c = r.counts;
  ctx.log.info(
    `mcp ${r.registry} (${c.mode}): ${c.servers} servers, ${c.seen} remotes from ${c.pages} page(s) (${c.inserted} new, ${c.updated} updated, ${c.relisted} relisted, ${c.delisted_status} withdrawn, ${c.delisted_missing} delisted${c.complete ? '' : ', sweep incomplete'}); ${c.deleted} deleted and ${c.deprecated} deprecated remotes seen; ${c.no_remotes} without remotes`,
    ctx.log.json ? { ...c, run: r.runId } : undefined,
  );
  for (const line of reasonLines(`mcp ${r.registry}`, c.skipped, c.noted)) ctx.log.info(line);
}
