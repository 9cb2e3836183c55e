import { z } from 'zod';
import { DateTime } from './common.ts';

/**
 * The evidence carries its proof (docs/notes/publish.md "Signed checksums"): every generation
 * lists each of its files with size and SHA-256 in `checksums.json`, signed with the installation's
 * Ed25519 key (`checksums.json.sig`); the public key is published as `atlas-signing-key.json` and
 * in GET /healthz.
 */

/** A SHA-256 digest in lowercase hex (file hashes, key ids). */
export const SHA256_HEX = /^[0-9a-f]{64}$/;

/** An Ed25519 public key: `public_key` = base64 of its 32 raw bytes, `key_id` = hex SHA-256 of them. */
export const SigningKeyInfo = z.strictObject({
  alg: z.literal('ed25519'),
  key_id: z.string().regex(SHA256_HEX),
  public_key: z.string().regex(/^[A-Za-z0-9+/]{43}=$/),
});
export type SigningKeyInfo = z.infer<typeof SigningKeyInfo>;

export const CHECKSUMS_FORMAT = 'atlas-checksums/1' as const;

/** One file of the list. isChecksumEntry (checksums.ts) states the same constraints for the seal's hot path. */
export const ChecksumEntry = z.strictObject({
  /** Relative to the generation root, `/`-separated, no `.` or `..` segments. */
  path: z.string().min(1),
  bytes: z.number().int().nonnegative(),
  sha256: z.string().regex(SHA256_HEX),
});
export type ChecksumEntry = z.infer<typeof ChecksumEntry>;

/**
 * `checksums.json`: every file of the generation except `checksums.json` and `checksums.json.sig`
 * themselves, sorted by path. `key_id` names the key that signed it (the signature, not this
 * member, is the proof).
 */
export const Checksums = z.strictObject({
  format: z.literal(CHECKSUMS_FORMAT),
  generation: z.string(),
  created_at: DateTime,
  key_id: z.string().regex(SHA256_HEX),
  files: z.array(ChecksumEntry),
});
export type Checksums = z.infer<typeof Checksums>;
