import { createHmac, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The per-installation secret for salted payTo hashes, address hashes and signed referral ids.
 * ATLAS_SECRET wins; otherwise it is generated once into the data directory with mode 0600.
 */
export function loadSecret(secretPath: string, env: NodeJS.ProcessEnv = process.env): string {
  if (env.ATLAS_SECRET && env.ATLAS_SECRET.length >= 16) return env.ATLAS_SECRET;
  if (existsSync(secretPath)) return readFileSync(secretPath, 'utf8').trim();
  mkdirSync(dirname(secretPath), { recursive: true });
  const s = randomBytes(32).toString('hex');
  // 'wx' so two processes racing here do not overwrite each other's secret.
  try {
    writeFileSync(secretPath, `${s}\n`, { mode: 0o600, flag: 'wx' });
  } catch {
    return readFileSync(secretPath, 'utf8').trim();
  }
  chmodSync(secretPath, 0o600);
  return s;
}

/** Keyed hash with a purpose label, so one secret never yields the same digest for two uses. */
export function keyedHash(secret: string, purpose: string, value: string): string {
  return createHmac('sha256', secret).update(`${purpose}\u0000${value}`).digest('hex');
}
