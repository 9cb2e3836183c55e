import type { Command } from 'commander';

/**
 * One worked example per command, shown after the options by `atlas <command> --help` (and the
 * commands' list by `atlas --help`). Keyed by the command's path below `atlas`; every registered
 * command has one (test/cli/main.test.ts walks the program and checks).
 */
export const EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  '': [
    'atlas init && atlas cycle            # a fresh data folder, then one full cycle',
    'npm start                             # the demo world on http://127.0.0.1:8787/',
  ],
  init: ['atlas --data ./data init               # create the database, folders and signing secret'],
  ingest: ['atlas ingest listings --dir listings   # load the reviewed listings'],
  'ingest listings': ['atlas ingest listings --dir listings   # one service per *.json file'],
  'ingest x402': ['atlas ingest x402 --source https://registry.example/list --registry example-x402'],
  'ingest mcp': ['atlas ingest mcp --source ./snapshots/mcp.json --registry official-mcp --full'],
  'ingest well-known': ["atlas ingest well-known --origins ./sellers.txt  # one origin per line; each origin's /.well-known/x402"],
  'ingest registries': ['atlas ingest registries --only cdp     # one configured catalog; without --only, every enabled one'],
  'ingest inbox': ['atlas ingest inbox                     # load submissions the server queued'],
  'ingest checks': ["atlas ingest checks ./batches          # load the probe workers' batch files (each once)"],
  moderate: ['atlas moderate run                      # decide every undecided outcome report by the rules'],
  'moderate run': ['atlas moderate run                      # also a step of every atlas cycle, after the inbox'],
  'moderate accept': ["atlas moderate accept out_3f2a9c --by alice --note 'a real second call'"],
  'moderate reject': [
    'atlas moderate reject --file ids.txt --by alice --reason duplicate   # a batch, one id a line',
    'atlas moderate reject --key key_ab12 --state pending --by alice      # every pending report of a key',
  ],
  probe: [
    'atlas probe --only calls --timeout-ms 5000   # check every call operation that is due',
    'atlas probe --shard 0/2 --out ./batches      # a worker: half the services, checks to a batch file',
  ],
  compute: ['atlas compute --scope full             # intervals, evidence and the directory for every service'],
  publish: [
    'atlas publish --out ./public           # write the signed static tree (only what changed)',
    'atlas publish --full                   # render every service again, sharing nothing',
  ],
  report: ['atlas report --week 2026-11-16         # freeze that finished week'],
  'report correct': ["atlas report correct --week 2026-11-16 --figure checks.by_kind.x402.missed=3 --note 'late probe run'"],
  docs: ['atlas docs --all                       # fetch every documentation page now'],
  cycle: ['atlas cycle                            # what cron runs: ingest, probe, compute, reports, publish'],
  verify: ['atlas verify --sample 50               # recompute 50 services and every report from the database'],
  serve: [
    'atlas serve --port 8787                # the API, /mcp and the pages over the published tree',
    'atlas serve --port 8788 --replica b    # a second replica over the same data folder',
  ],
  demo: [
    'npm start                              # = atlas demo: 14 simulated days, then the pages on :8787',
    'atlas demo --port 0 --size 100 --days 7 # smaller and quicker, any free port',
  ],
  sql: ["atlas sql 'SELECT tier, count(*) FROM services GROUP BY tier' --format json"],
  export: ['atlas export --out ./export --format csv'],
  archive: ['atlas archive                          # move checks older than 100 days to monthly Parquet files'],
};

/** The path of `cmd` below the root program ('' for the root), e.g. 'ingest x402'. */
export function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** Add an "Example" section to `program` and every command below it that has one in EXAMPLES. */
export function addExamples(program: Command): void {
  const visit = (cmd: Command) => {
    const lines = EXAMPLES[commandPath(cmd)];
    if (lines?.length) cmd.addHelpText('after', `\nExample${lines.length > 1 ? 's' : ''}:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`);
    for (const sub of cmd.commands) visit(sub);
  };
  visit(program);
}
