import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSigningKey, publicKeyInfo, signBytes, verifyBytes } from '../../../pipeline/core/signing-key.ts';
import { tempDir } from '../../helpers/context.ts';

describe('loadSigningKey', () => {
  it('creates an Ed25519 key once with mode 0600 (creating the folder) and returns the same key after', () => {
    const t = tempDir();
    try {
      const path = join(t.dir, 'nested', 'signing-key.pem');
      const a = loadSigningKey(path);
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(a.privateKey.asymmetricKeyType).toBe('ed25519');
      const pem = readFileSync(path, 'utf8');
      const b = loadSigningKey(path);
      expect(b.info).toEqual(a.info);
      expect(readFileSync(path, 'utf8')).toBe(pem);
      expect(verifyBytes(b.publicKey, Buffer.from('x'), signBytes(a.privateKey, Buffer.from('x')))).toBe(true);
    } finally {
      t.cleanup();
    }
  });

  it('never replaces a key that is already there (one made elsewhere is used as is)', () => {
    const t = tempDir();
    try {
      const path = join(t.dir, 'signing-key.pem');
      const theirs = generateKeyPairSync('ed25519');
      writeFileSync(path, theirs.privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
      expect(loadSigningKey(path).info).toEqual(publicKeyInfo(theirs.publicKey));
    } finally {
      t.cleanup();
    }
  });

  it('refuses a file that is not an Ed25519 private key instead of overwriting it', () => {
    const t = tempDir();
    try {
      const path = join(t.dir, 'signing-key.pem');
      writeFileSync(path, 'garbage');
      expect(() => loadSigningKey(path)).toThrow(/not a readable private key/);
      writeFileSync(path, generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }));
      expect(() => loadSigningKey(path)).toThrow(/not an Ed25519 private key/);
      expect(readFileSync(path, 'utf8')).toMatch(/BEGIN PRIVATE KEY/);
    } finally {
      t.cleanup();
    }
  });
});
