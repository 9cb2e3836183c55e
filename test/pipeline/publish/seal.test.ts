import { buildOpenApi } from '../../../site/contract/openapi.ts';
import { generateKeyPairSync } from 'node:crypto';
import { appendFileSync, cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../pipeline/core/config.ts';
import { silentLogger } from '../../../pipeline/core/log.ts';
import { loadSigningKey, parsePublicKey, publicKeyInfo, signBytes } from '../../../pipeline/core/signing-key.ts';
import { createApp } from '../../../serve/app.ts';
import { closeDeps, createDeps } from '../../../serve/deps.ts';
import { CACHE_CONTROL, staticHeadersFile } from '../../../site/contract/http-cache.ts';
import { Checksums, Health, SigningKeyInfo } from '../../../site/contract/index.ts';
import {
  buildChecksums,
  CHECKSUMS_FILE,
  CHECKSUMS_SIG_FILE,
  checksumsBytes,
  type ProblemKind,
  publish,
  SIGNING_KEY_FILE,
  scanTree,
  type TreeVerification,
  verifyTree,
} from '../../../pipeline/publish/index.ts';
import { makeContext, openTestStore, tempDir, testClock } from '../../helpers/context.ts';
import { currentDir, parseWith, readJson } from './read-tree.ts';
import { seedChangesAndReports, seedRaw } from './seed.ts';

const NOW = '2026-11-25T12:00:00Z';
const problemsOf = (r: TreeVerification): [string, ProblemKind][] => r.problems.map((p) => [p.path, p.problem]);

/**
 * A real publish (pages off) into data folder `tmpDir`, from a freshly seeded database of its own
 * (in `dbDir`, default the data folder).
 */
async function publishOnce(tmpDir: string, clock = testClock(NOW), dbDir = tmpDir) {
  mkdirSync(dbDir, { recursive: true });
  const store = await openTestStore(dbDir);
  try {
    await seedRaw(store, new Date(NOW), 12, 3);
    await seedChangesAndReports(store, new Date(NOW));
    const ctx = makeContext(tmpDir, { clock });
    return { ctx, result: await publish(ctx, store, { pages: false }) };
  } finally {
    store.close();
  }
}

/**
 * One sealed generation on disk (its database closed again); every test works on its own copy of
 * it, the way a mirror would hold it.
 */
describe('verifying a published generation', () => {
  let tmp: ReturnType<typeof tempDir>;
  let ctx: ReturnType<typeof makeContext>;
  let gen: string;
  let copies = 0;
  const copy = (): string => {
    const dir = join(tmp.dir, `mirror-${++copies}`);
    cpSync(gen, dir, { recursive: true });
    return dir;
  };
  const serviceFile = (root: string) => {
    const name = readdirSync(join(root, 'api', 'v1', 'services')).sort()[0]!;
    return `api/v1/services/${name}`;
  };

  beforeAll(async () => {
    tmp = tempDir('atlas-seal-');
    const p = await publishOnce(tmp.dir);
    ctx = p.ctx;
    gen = currentDir(ctx.paths.publicDir);
    expect(p.result.sealed.files).toBeGreaterThan(10);
  });
  afterAll(() => tmp?.cleanup());

  it('lists every file of the generation but its own two, with size and SHA-256, signed by the published key', async () => {
    const checksums = parseWith(Checksums, join(gen, CHECKSUMS_FILE));
    const found = await scanTree(gen);
    expect(checksums.files.map((f) => f.path)).toEqual(
      found.map((f) => f.path).filter((p) => p !== CHECKSUMS_FILE && p !== CHECKSUMS_SIG_FILE),
    );
    // `_headers` (the static host's caching rules) is sealed like every other file.
    for (const p of [
      'manifest.json',
      'healthz.json',
      'index/buckets.json',
      'index/summaries/0.json',
      SIGNING_KEY_FILE,
      '_headers',
      serviceFile(gen),
    ]) {
      expect(
        checksums.files.some((f) => f.path === p),
        p,
      ).toBe(true);
    }
    const entry = checksums.files.find((f) => f.path === 'manifest.json')!;
    expect(entry.bytes).toBe(statSync(join(gen, 'manifest.json')).size);
    // The file on disk is exactly the canonical serialisation (what the signature covers).
    expect(readFileSync(join(gen, CHECKSUMS_FILE)).equals(checksumsBytes(checksums))).toBe(true);
    const key = parseWith(SigningKeyInfo, join(gen, SIGNING_KEY_FILE));
    expect(checksums.key_id).toBe(key.key_id);
    expect(checksums.generation).toBe((readJson(join(gen, 'manifest.json')) as { generation: string }).generation);
  });

  it('writes the caching rules of the server for static hosts (_headers, from the same policy table)', () => {
    const text = readFileSync(join(gen, '_headers'), 'utf8');
    expect(text).toBe(staticHeadersFile());
    const lines = text.split('\n');
    expect(lines[1]).toBe('/*');
    expect(lines).toContain(`  Cache-Control: ${CACHE_CONTROL.published}`);
    expect(lines).toContain('  X-API-Status: preview');
    // Every rule line of the format: a path pattern, then indented `Name: value` headers.
    for (const l of lines.filter((x) => x && !x.startsWith('#'))) expect(l).toMatch(/^(\/\S*| {2}[A-Za-z-]+: \S.*)$/);
  });

  it('verifies as published, and as a copy in another folder (with the tree key or a pinned one)', async () => {
    const asPublished = await verifyTree(ctx.paths.publicDir);
    expect(asPublished.problems).toEqual([]);
    expect(asPublished.ok).toBe(true);
    expect(asPublished.root).toBe(gen);
    const mirror = copy();
    const r = await verifyTree(mirror);
    expect(r).toMatchObject({ ok: true, root: mirror, problems: [], key: { source: 'tree' } });
    const installed = loadSigningKey(ctx.paths.signingKey);
    const p = await verifyTree(mirror, { publicKey: installed.publicKey });
    expect(p).toMatchObject({ ok: true, problems: [], key: { source: 'pinned', key_id: installed.info.key_id } });
  });

  it('fails naming the file when one byte of a service file changes', async () => {
    const mirror = copy();
    const path = serviceFile(mirror);
    const buf = readFileSync(join(mirror, path));
    buf[10] = buf[10]! ^ 1;
    writeFileSync(join(mirror, path), buf);
    const r = await verifyTree(mirror);
    expect(r.ok).toBe(false);
    expect(problemsOf(r)).toEqual([[path, 'hash_mismatch']]);
  });

  it('fails on a deleted file, an added file, a grown file and a symlink', async () => {
    const mirror = copy();
    const path = serviceFile(mirror);
    rmSync(join(mirror, path));
    writeFileSync(join(mirror, 'api', 'v1', 'extra.json'), '{}');
    appendFileSync(join(mirror, 'api', 'v1', 'stats.json'), ' ');
    symlinkSync('manifest.json', join(mirror, 'link.json'));
    const r = await verifyTree(mirror);
    expect(problemsOf(r)).toEqual([
      ['api/v1/extra.json', 'unlisted'],
      [path, 'missing'],
      ['api/v1/stats.json', 'size_mismatch'],
      ['link.json', 'unlisted'],
    ]);
  });

  it('fails when checksums.json is tampered with (the signature no longer matches), or missing', async () => {
    const mirror = copy();
    const path = serviceFile(mirror);
    // Make a file change look legitimate by rewriting its listed hash: the signature catches it.
    writeFileSync(join(mirror, path), '{"tampered":true}');
    const listed = parseWith(Checksums, join(mirror, CHECKSUMS_FILE));
    const { sha256, bytes } = (await scanTree(mirror)).find((f) => f.path === path)!;
    const forged = { ...listed, files: listed.files.map((f) => (f.path === path ? { ...f, bytes, sha256: sha256! } : f)) };
    writeFileSync(join(mirror, CHECKSUMS_FILE), checksumsBytes(forged));
    expect(problemsOf(await verifyTree(mirror))).toEqual([[CHECKSUMS_SIG_FILE, 'signature']]);

    rmSync(join(mirror, CHECKSUMS_FILE));
    expect(problemsOf(await verifyTree(mirror))).toEqual([[CHECKSUMS_FILE, 'checksums']]);
    writeFileSync(join(mirror, CHECKSUMS_FILE), '{"format":"atlas-checksums/1"}');
    expect(problemsOf(await verifyTree(mirror))).toEqual([[CHECKSUMS_FILE, 'checksums']]);
  });

  it('fails when the signature is missing or made with another key; a re-signed tree passes only without a pinned key', async () => {
    const other = generateKeyPairSync('ed25519');
    const published = parsePublicKey(readFileSync(join(gen, SIGNING_KEY_FILE), 'utf8'));

    const unsigned = copy();
    rmSync(join(unsigned, CHECKSUMS_SIG_FILE));
    expect(problemsOf(await verifyTree(unsigned))).toEqual([[CHECKSUMS_SIG_FILE, 'signature']]);

    const resigned = copy();
    const bytes = readFileSync(join(resigned, CHECKSUMS_FILE));
    writeFileSync(join(resigned, CHECKSUMS_SIG_FILE), signBytes(other.privateKey, bytes));
    expect(problemsOf(await verifyTree(resigned))).toEqual([[CHECKSUMS_SIG_FILE, 'signature']]);

    // Whoever can rewrite the tree can swap the key inside it and sign everything again: only a
    // key pinned from elsewhere tells the difference.
    const forged = copy();
    writeFileSync(join(forged, SIGNING_KEY_FILE), `${JSON.stringify(publicKeyInfo(other.publicKey))}\n`);
    const files = (await scanTree(forged)).map((f) => ({ path: f.path, bytes: f.bytes, sha256: f.sha256! }));
    const list = buildChecksums({ generation: 'forged', createdAt: new Date(NOW), keyId: publicKeyInfo(other.publicKey).key_id, files });
    writeFileSync(join(forged, CHECKSUMS_FILE), checksumsBytes(list));
    writeFileSync(join(forged, CHECKSUMS_SIG_FILE), signBytes(other.privateKey, checksumsBytes(list)));
    expect((await verifyTree(forged)).ok).toBe(true);
    const pinned = await verifyTree(forged, { publicKey: published });
    expect(problemsOf(pinned)).toEqual([[CHECKSUMS_SIG_FILE, 'signature']]);
    expect(pinned.problems[0]!.detail).toContain(publicKeyInfo(other.publicKey).key_id);
  });
});

describe('the installation signing key', () => {
  it('is created once (mode 0600, beside the secret) and signs every later publish', async () => {
    const tmp = tempDir('atlas-seal-key-');
    try {
      const { ctx, result: first } = await publishOnce(tmp.dir);
      expect(ctx.paths.signingKey).toBe(join(tmp.dir, 'signing-key.pem'));
      const pemBefore = readFileSync(ctx.paths.signingKey, 'utf8');
      expect(statSync(ctx.paths.signingKey).mode & 0o777).toBe(0o600);
      const published = parseWith(SigningKeyInfo, join(first.dir, SIGNING_KEY_FILE));
      expect(first.sealed.keyId).toBe(published.key_id);

      const { result: second } = await publishOnce(tmp.dir, testClock('2026-11-25T12:05:00Z'), join(tmp.dir, 'second-db'));
      expect(second.generation).not.toBe(first.generation);
      expect(second.sealed.keyId).toBe(published.key_id);
      expect(parseWith(SigningKeyInfo, join(second.dir, SIGNING_KEY_FILE))).toEqual(published);
      expect(readFileSync(ctx.paths.signingKey, 'utf8')).toBe(pemBefore);
      expect(loadSigningKey(ctx.paths.signingKey).info).toEqual(published);
      expect((await verifyTree(second.dir, { publicKey: parsePublicKey(JSON.stringify(published)) })).ok).toBe(true);
    } finally {
      tmp.cleanup();
    }
  }, 60_000);

  it('is served in GET /healthz, the same key the tree publishes', async () => {
    const tmp = tempDir('atlas-seal-healthz-');
    const { ctx } = await publishOnce(tmp.dir).catch((e) => {
      tmp.cleanup();
      throw e;
    });
    const deps = await createDeps({
      clock: testClock(NOW),
      config: defaultConfig(),
      secret: 'test-secret-0123456789abcdef',
      log: silentLogger,
      siteDir: ctx.paths.publicDir,
      inboxDir: join(tmp.dir, 'inbox'),
      replicaId: 't',
      mounts: [],
      openapi: buildOpenApi,
    });
    try {
      const res = await createApp(deps).request('/healthz');
      const body = Health.parse(await res.json());
      const inTree = parseWith(SigningKeyInfo, join(currentDir(ctx.paths.publicDir), SIGNING_KEY_FILE));
      expect(body.signing_key).toEqual(inTree);
      expect(body.signing_key).toEqual(loadSigningKey(ctx.paths.signingKey).info);
      expect(parseWith(Health, join(currentDir(ctx.paths.publicDir), 'healthz.json')).signing_key).toEqual(inTree);
    } finally {
      await closeDeps(deps);
      tmp.cleanup();
    }
  });
});
