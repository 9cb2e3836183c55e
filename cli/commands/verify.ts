import type { KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { AtlasError } from '../../pipeline/core/errors.ts';
import { parsePublicKey, publicKeyFromBase64 } from '../../pipeline/core/signing-key.ts';
import { verifyTree } from '../../site/publish/verify-tree.ts';

interface VerifyOptions {
  tree?: string;
  key?: string;
  publicKey?: string;
}

const HELP_AFTER = `
Modes:
  --tree DIR   check a published tree offline (no database, no network): the Ed25519 signature
               over DIR/checksums.json, then every listed file's size and SHA-256, and that no
               unlisted file is present. DIR is a generation folder or a public folder (its
               "current" is checked). Prints one line per problem (path: what is wrong).
  (no --tree)  recomputing published figures from the database is not available in this version.

Pin the key. Without --key or --public-key the signature is checked with atlas-signing-key.json
from inside the tree, which proves only that the files match what that key signed: whoever altered
the tree could have replaced the key and signed again. An outside verifier should take the public
key once from a place they trust (the operator, GET /healthz "signing_key" fetched over HTTPS, a
copy kept from earlier) and pass it here every time.

Exit codes: 0 every check passed; 1 any problem (listed on stdout); 2 bad usage or input.
The global --json prints the result as one JSON object instead.`;

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
 * `atlas verify`. One mode today, `--tree DIR` (site/publish/verify-tree.ts). Plain `atlas verify`
 * is reserved for recomputing figures from the database and says so (exit 2) rather than pretend.
 * The tree mode builds no Context: it reads nothing but DIR and the key, and creates no data folder
 * or secret on the verifier's machine.
 */
export function register(program: Command): void {
  program
    .command('verify')
    .description('check published evidence: --tree DIR verifies a downloaded tree against its signed checksums, offline')
    .option('--tree <dir>', 'published tree to check (a generation folder, or a public folder with a current pointer)')
    .option('--key <file>', 'public key to check the signature with: PEM, atlas-signing-key.json or a saved /healthz body')
    .option('--public-key <base64>', 'public key to check the signature with: the 32 raw Ed25519 bytes, base64')
    .addHelpText('after', HELP_AFTER)
    .action(async (opts: VerifyOptions, cmd: Command) => {
      if (opts.tree === undefined) {
        throw new AtlasError(
          'bad_usage',
          'verify: only --tree DIR is available in this version (recomputing figures from the database is not)',
        );
      }
      const json = !!cmd.optsWithGlobals<{ json?: boolean }>().json;
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
