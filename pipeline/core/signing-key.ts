import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign, verify } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { AtlasError } from './errors.ts';

/**
 * The installation's Ed25519 signing key: it signs the checksum list of every published generation
 * (docs/notes/publish.md "Signed checksums"). The private key is generated once into the data
 * directory (PKCS#8 PEM, mode 0600, next to `secret`) and never overwritten; the public key is
 * published in the tree and in GET /healthz.
 *
 * Public key form everywhere: `public_key` = base64 of the 32 raw key bytes (RFC 8032),
 * `key_id` = lowercase hex SHA-256 of those 32 bytes.
 */
export const SIGNING_ALG = 'ed25519';

export interface SigningKeyInfo {
  alg: typeof SIGNING_ALG;
  key_id: string;
  public_key: string;
}

export interface SigningKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  info: SigningKeyInfo;
}

const RAW_KEY_BYTES = 32;

export function rawPublicKey(publicKey: KeyObject): Buffer {
  const x = publicKey.export({ format: 'jwk' }).x;
  if (publicKey.asymmetricKeyType !== 'ed25519' || !x) throw new AtlasError('invalid_input', 'not an Ed25519 public key');
  return Buffer.from(x, 'base64url');
}

export const keyIdOf = (raw: Uint8Array): string => createHash('sha256').update(raw).digest('hex');

export function publicKeyInfo(publicKey: KeyObject): SigningKeyInfo {
  const raw = rawPublicKey(publicKey);
  return { alg: SIGNING_ALG, key_id: keyIdOf(raw), public_key: raw.toString('base64') };
}

/** The 32 raw bytes (base64) as a key object; invalid_input when it is not 32 bytes of base64. */
export function publicKeyFromBase64(b64: string): KeyObject {
  const s = b64.trim();
  const raw = Buffer.from(s, 'base64');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(s) || raw.length !== RAW_KEY_BYTES) {
    throw new AtlasError('invalid_input', `a public key must be the ${RAW_KEY_BYTES} raw Ed25519 bytes in base64`);
  }
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' });
}

/**
 * A public key as an outside verifier may hold it: a PEM `PUBLIC KEY`, the published key file or a
 * saved /healthz body (JSON with `public_key` or `signing_key.public_key`), or the bare base64.
 */
export function parsePublicKey(text: string): KeyObject {
  const t = text.trim();
  if (t.startsWith('-----BEGIN')) {
    let key: KeyObject;
    try {
      key = createPublicKey(t);
    } catch {
      throw new AtlasError('invalid_input', 'the PEM text is not a public key');
    }
    if (key.asymmetricKeyType !== 'ed25519') throw new AtlasError('invalid_input', 'the PEM key is not an Ed25519 key');
    return key;
  }
  if (t.startsWith('{')) {
    let v: unknown;
    try {
      v = JSON.parse(t);
    } catch {
      throw new AtlasError('invalid_input', 'the key file is not valid JSON');
    }
    const o = v as { public_key?: unknown; signing_key?: { public_key?: unknown } | null };
    const b64 = typeof o.public_key === 'string' ? o.public_key : o.signing_key?.public_key;
    if (typeof b64 !== 'string') throw new AtlasError('invalid_input', 'the key file has no public_key (nor signing_key.public_key)');
    return publicKeyFromBase64(b64);
  }
  return publicKeyFromBase64(t);
}

/** Ed25519 signs the message itself (no separate digest algorithm, hence `null`); base64 out. */
export const signBytes = (key: KeyObject, bytes: Uint8Array): string => sign(null, bytes, key).toString('base64');

/** True only for a valid signature by `publicKey` over exactly `bytes`; malformed input is false. */
export function verifyBytes(publicKey: KeyObject, bytes: Uint8Array, signatureB64: string): boolean {
  const s = signatureB64.trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(s)) return false;
  try {
    return verify(null, bytes, publicKey, Buffer.from(s, 'base64'));
  } catch {
    return false;
  }
}

function fromPem(pem: string, path: string): SigningKey {
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(pem);
  } catch (e) {
    throw new AtlasError('internal', `${path}: not a readable private key`, undefined, { cause: e });
  }
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new AtlasError('internal', `${path}: not an Ed25519 private key`);
  const publicKey = createPublicKey(privateKey);
  return { privateKey, publicKey, info: publicKeyInfo(publicKey) };
}

/**
 * Load the installation's signing key, creating it on first use. Same discipline as the secret
 * (secret.ts): mode 0600, created with 'wx' so two processes racing here never overwrite each
 * other's key (the loser reads the winner's), and an existing key is never replaced — replacing it
 * would break every verifier that pinned the published public key.
 */
export function loadSigningKey(path: string): SigningKey {
  if (existsSync(path)) return fromPem(readFileSync(path, 'utf8'), path);
  mkdirSync(dirname(path), { recursive: true });
  const { privateKey } = generateKeyPairSync('ed25519');
  const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  try {
    writeFileSync(path, pem, { mode: 0o600, flag: 'wx' });
  } catch {
    return fromPem(readFileSync(path, 'utf8'), path);
  }
  chmodSync(path, 0o600);
  return fromPem(pem, path);
}
