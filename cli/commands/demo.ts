import type { Command } from 'commander';
import { createLogger } from '../../pipeline/core/log.ts';
import { DEMO_DEFAULTS, startDemo, type DemoHandle } from '../demo/run-demo.ts';
import { action, parseIntOption } from './util.ts';

interface DemoCliOptions {
  days: number;
  port: number;
  host: string;
  size: number;
  seed: number;
  probeTimeoutMs: number;
}

/** Resolve on the first SIGINT or SIGTERM; the handlers are removed again either way. */
function onceSignal(fn: (signal: string) => void): () => void {
  const onInt = () => fn('SIGINT');
  const onTerm = () => fn('SIGTERM');
  process.once('SIGINT', onInt);
  process.once('SIGTERM', onTerm);
  return () => {
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
  };
}

/**
 * `atlas demo` (what `npm start` runs): the simulated ecosystem on loopback, back-filled history,
 * then the API, /mcp and the pages, cycling hourly. Uses `<data>/demo/` (fresh on every start), never
 * the real database. Prints the URLs and a summary on stdout; Ctrl-C stops everything cleanly, also
 * while it is still back-filling (the cycle in flight finishes first).
 */
export function register(program: Command): void {
  program
    .command('demo')
    .description('run the demo world: a simulated ecosystem on loopback, real probes, the API and pages on :8787')
    .option('--days <n>', 'days of simulated history', parseIntOption('--days', 1, 60), DEMO_DEFAULTS.days)
    .option('--port <n>', 'port of the API and pages (0: any free port)', parseIntOption('--port', 0, 65535), DEMO_DEFAULTS.port)
    .option('--host <host>', 'address to listen on', DEMO_DEFAULTS.host)
    .option('--size <n>', 'fleet endpoints (x402 + MCP)', parseIntOption('--size', 45, 5000), DEMO_DEFAULTS.size)
    .option('--seed <n>', 'fleet seed', parseIntOption('--seed', 0), DEMO_DEFAULTS.seed)
    .option(
      '--probe-timeout-ms <n>',
      'probe timeout for the demo',
      parseIntOption('--probe-timeout-ms', 100, 120_000),
      DEMO_DEFAULTS.probeTimeoutMs,
    )
    .action(
      action(async (ctx, opts: DemoCliOptions) => {
        const startup = new AbortController();
        const offStartup = onceSignal(() => {
          process.stderr.write('demo: interrupted; finishing the cycle in flight and stopping…\n');
          startup.abort();
        });
        let demo: DemoHandle;
        try {
          demo = await startDemo({
            dataDir: ctx.paths.data,
            days: opts.days,
            port: opts.port,
            host: opts.host,
            size: opts.size,
            seed: opts.seed,
            probeTimeoutMs: opts.probeTimeoutMs,
            probeConcurrency: DEMO_DEFAULTS.probeConcurrency,
            coarseHours: DEMO_DEFAULTS.coarseHours,
            recentHours: DEMO_DEFAULTS.recentHours,
            // The demo prints its own progress lines; the steps' info lines would drown them (warnings stay).
            log: createLogger({ json: ctx.log.json, quiet: true }),
            onProgress: (line) => process.stderr.write(`${line}\n`),
            signal: startup.signal,
          });
        } catch (e) {
          if (startup.signal.aborted) {
            process.stderr.write('demo: stopped.\n');
            return;
          }
          throw e;
        } finally {
          offStartup();
        }
        process.stdout.write(`${demo.summaryText}\n`);
        await new Promise<void>((resolve) => {
          onceSignal((signal) => {
            process.stderr.write(`demo: ${signal}: stopping the server, the cycles and the fleet…\n`);
            demo.stop().then(resolve, resolve);
          });
        });
        process.stderr.write('demo: stopped.\n');
      }),
    );
}
