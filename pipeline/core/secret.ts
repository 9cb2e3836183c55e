import { createHmac, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { AtlasError } from './errors.ts';

/**
 * The per-installation secret for salted payTo hashes, address hashes and signed referral ids.
 * ATLAS_SECRET wins (an empty value counts as unset); otherwise it is generated once into the data
 * directory with mode 0600. A secret shorter than MIN_SECRET_LENGTH, from the environment or the
 * file, is an error: hashes keyed with a guessable secret would let anyone link payTo addresses.
 */
export function loadSecret(secretPath: string, env: NodeJS.ProcessEnv = process.env): string {
  if (env.ATLAS_SECRET) return checked(env.ATLAS_SECRET, 'ATLAS_SECRET');
  if (existsSync(secretPath)) return checked(readFileSync(secretPath, 'utf8').trim(), secretPath);
  mkdirSync(dirname(secretPath), { recursive: true });
  const s = randomBytes(32).toString('hex');
  // Written whole under a temporary name, then linked into place: link fails when the file exists,
  // so two processes racing here keep one secret, and a reader sees no file or the whole secret,
  // never the empty file a create-then-write leaves for a moment (replicas started together on a
  // new data folder hashed addresses with different secrets that way).
  const tmp = `${secretPath}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(tmp, `${s}\n`, { mode: 0o600 });
  try {
    chmodSync(tmp, 0o600);
    linkSync(tmp, secretPath);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    return readFileSync(secretPath, 'utf8').trim();
  } finally {
    rmSync(tmp, { force: true });
  }
  return s;
}

export const MIN_SECRET_LENGTH = 16;

function checked(secret: string, origin: string): string {
  if (secret.length < MIN_SECRET_LENGTH)
    throw new AtlasError(
      'invalid_input',
      `${origin}: the secret must be at least ${MIN_SECRET_LENGTH} characters (it has ${secret.length})`,
    );
  return secret;
}

/** Keyed hash with a purpose label, so one secret never yields the same digest for two uses. */
export function keyedHash(secret: string, purpose: string, value: string): string {
  return createHmac('sha256', secret).update(`${purpose}\u0000${value}`).digest('hex');
}
