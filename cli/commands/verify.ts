import type { KeyObject } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { AtlasError } from '../../pipeline/core/errors.ts';
import { parsePublicKey, publicKeyFromBase64 } from '../../pipeline/core/signing-key.ts';
import { verifyTree } from '../../pipeline/publish/verify-tree.ts';
import { formatMismatch, verifyGeneration } from '../../pipeline/verify/index.ts';
import { withStore } from '../../pipeline/store/index.ts';
import { loadConfig } from '../../pipeline/core/config.ts';
import { parseNow } from '../../pipeline/core/clock.ts';
import { resolvePaths } from '../../pipeline/core/paths.ts';
import type { GlobalOptions } from '../context.ts';
import { parseIntOption } from './util.ts';

interface VerifyOptions {
  tree?: string;
  key?: string;
  publicKey?: string;
  sample?: number;
  site?: string;
  out?: string;
}

const HELP_AFTER = `
Modes:
  --tree DIR   check a published tree offline (no database, no network): the Ed25519 signature
               over DIR/checksums.json, then every listed file's size and SHA-256, and that no
               unlisted file is present. DIR is a generation folder or a public folder (its
               "current" is checked). Prints one line per problem (path: what is wrong).
  (no --tree)  recompute the published figures from the database (--data, opened read-only, so it
               runs beside researchers) and compare them with the published tree (--site DIR, or the
               default data/public/current): every service's evidence (checks_30d, passed_30d,
               missed_30d, pass_rate, freshness, check interval, monitoring_since/days,
               limited_evidence, last check), payment terms (changes_30d/90d, pay_to_changes_90d,
               last change, current_since, window_start, limited), in_directory and each listing
               criterion, and every figure of every frozen weekly report. The queries are those of
               docs/research.md, run over the raw tables.
               Everything is evaluated AT THE PUBLISHED INSTANT, not at the wall clock (--now does not
               move it): evidence and payment terms at the compute the generation published, each
               directory evaluation at its evaluated_at, each report over [week_start, figures_until).
               So a tree verifies the same way later. Prints one line per mismatch:
                 <service-or-report-id>  <field>  published=<value>  recomputed=<value>
               --sample N checks N services (a sample seeded by the generation id) and every report.

Pin the key. Without --key or --public-key the signature is checked with atlas-signing-key.json
from inside the tree, which proves only that the files match what that key signed: whoever altered
the tree could have replaced the key and signed again. An outside verifier should take the public
key once from a place they trust (the operator, GET /healthz "signing_key" fetched over HTTPS, a
copy kept from earlier) and pass it here every time.

Exit codes: 0 every check passed; 1 any problem or mismatch (listed on stdout); 2 bad usage or input.
The global --json prints the result as one JSON object instead (recompute mode:
{generation, checked: {services, reports}, mismatches: [{id, field, published, recomputed}]}).`;

/** Read the pinned key, if any; a key that cannot be read is bad input (exit 2), not a failed check. */
function pinnedKey(opts: VerifyOptions): KeyObject | undefined {
  if (opts.key !== undefined && opts.publicKey !== undefined) throw new AtlasError('bad_usage', 'give --key or --public-key, not both');
  if (opts.publicKey !== undefined) {
    try {
      return publicKeyFromBase64(opts.publicKey);
    } catch (e) {
      throw new AtlasError('invalid_input', `--public-key: ${(e as Error).message}`);
    }
  }
  if (opts.key === undefined) return undefined;
  let text: string;
  try {
    text = readFileSync(opts.key, 'utf8');
  } catch {
    throw new AtlasError('invalid_input', `--key ${opts.key}: cannot read the file`);
  }
  try {
    return parsePublicKey(text);
  } catch (e) {
    throw new AtlasError('invalid_input', `--key ${opts.key}: ${(e as Error).message}`);
  }
}

/**
 * `atlas verify`. Two modes: `--tree DIR` checks a tree's signature and hashes offline
 * (pipeline/publish/verify-tree.ts); without it, the published figures are recomputed from the database
 * (pipeline/verify). The tree mode builds no Context: it reads nothing but DIR and the key, and
 * creates no data folder or secret on the verifier's machine.
 */
export function register(program: Command): void {
  program
    .command('verify')
    .description(
      'check published evidence: recompute every published figure from the database at the published instant (or, with --tree DIR, check a downloaded tree against its signed checksums, offline)',
    )
    .option('--sample <n>', 'recompute mode: check a deterministic sample of N services (and every report)', parseIntOption('--sample', 1))
    .option('--site <dir>', 'recompute mode: published tree to compare (a public folder or a generation folder; default data/public)')
    .option('--out <dir>', 'recompute mode: same as --site (the folder `atlas publish --out` wrote)')
    .option('--tree <dir>', 'published tree to check offline (a generation folder, or a public folder with a current pointer)')
    .option('--key <file>', 'public key to check the signature with: PEM, atlas-signing-key.json or a saved /healthz body')
    .option('--public-key <base64>', 'public key to check the signature with: the 32 raw Ed25519 bytes, base64')
    .addHelpText('after', HELP_AFTER)
    .action(async (opts: VerifyOptions, cmd: Command) => {
      const json = !!cmd.optsWithGlobals<{ json?: boolean }>().json;
      if (opts.tree === undefined) return recompute(opts, cmd, json);
      if (opts.sample !== undefined || opts.site !== undefined || opts.out !== undefined)
        throw new AtlasError('bad_usage', '--sample, --site and --out belong to the recompute mode, not --tree');
      const publicKey = pinnedKey(opts);
      const r = await verifyTree(resolve(opts.tree), publicKey ? { publicKey } : {});
      if (json) process.stdout.write(`${JSON.stringify(r)}\n`);
      else {
        for (const p of r.problems) process.stdout.write(`${p.path}: ${p.detail}\n`);
        const key = r.key ? `key ${r.key.key_id} (${r.key.source === 'pinned' ? 'pinned' : 'from the tree, not pinned'})` : 'no usable key';
        process.stdout.write(
          r.ok
            ? `ok: ${r.listed} files of generation ${r.generation} match checksums.json, signed by ${key}\n`
            : `FAILED: ${r.problems.length} problem(s) in ${r.root} (${key})\n`,
        );
      }
      if (!r.ok) throw new AtlasError('internal', `verify: ${r.problems.length} problem(s) in ${r.root}`);
    });
}

/** Recompute mode: the database read-only, the tree at --site/--out or the default public folder. */
async function recompute(opts: VerifyOptions, cmd: Command, json: boolean): Promise<void> {
  if (opts.key !== undefined || opts.publicKey !== undefined) throw new AtlasError('bad_usage', '--key and --public-key belong to --tree');
  if (opts.site !== undefined && opts.out !== undefined && resolve(opts.site) !== resolve(opts.out))
    throw new AtlasError('bad_usage', 'give --site or --out, not both');
  // Paths only, no Context: verifying creates nothing (no secret, no data folder) on the verifier's side.
  const g = cmd.optsWithGlobals<GlobalOptions>();
  if (g.now !== undefined) parseNow(g.now); // validated like every command; the instant comes from the tree
  const paths = resolvePaths(g.data ?? loadConfig(g.config).paths.data);
  const tree = resolve(opts.site ?? opts.out ?? paths.publicDir);
  if (!existsSync(paths.db)) throw new AtlasError('bad_usage', `no database at ${paths.db}; run \`atlas init\` first`);
  const r = await withStore(paths.db, (s) => verifyGeneration(s, tree, opts.sample === undefined ? {} : { sample: opts.sample }), {
    readOnly: true,
  });
  if (json)
    process.stdout.write(
      `${JSON.stringify({ generation: r.generation, generated_at: r.generated_at, computed_at: r.computed_at, checked: r.checked, mismatches: r.mismatches })}\n`,
    );
  else {
    for (const m of r.mismatches) process.stdout.write(`${formatMismatch(m)}\n`);
    const what = `${r.checked.services} service(s) and ${r.checked.reports} report(s) of generation ${r.generation} (figures as of ${r.computed_at}), with ${r.checked.receipts} receipt verdict(s),`;
    process.stdout.write(
      r.mismatches.length ? `FAILED: ${r.mismatches.length} mismatch(es) in ${what}\n` : `ok: ${what} match the database\n`,
    );
  }
  if (r.mismatches.length) throw new AtlasError('internal', `verify: ${r.mismatches.length} mismatch(es) in generation ${r.generation}`);
}
