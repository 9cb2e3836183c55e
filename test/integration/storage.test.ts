import { mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AtlasError, exitCodeFor, httpStatusFor, storageError } from '../../pipeline/core/errors.ts';
import { openStore } from '../../pipeline/store/index.ts';
import { currentGeneration, publish } from '../../pipeline/publish/index.ts';
import { JsonlAppender } from '../../serve/inbox/appender.ts';
import { runCli } from '../helpers/cli.ts';
import { makeContext, openTestStore, tempDir } from '../helpers/context.ts';
import { seedRaw } from '../pipeline/publish/seed.ts';
import { harness, type Harness } from '../serve/harness.ts';
import { type SmallFs, smallFs } from './small-fs.ts';

/**
 * Full disk and read-only storage (docs/notes/hostile-input.md, "Full disk and read-only storage"):
 * the inbox log, the publish writer and the database writer fail with `storage_unavailable` (HTTP
 * 503, CLI exit 2, one line), leave nothing half-written, and the last complete generation stays current. The failures
 * are real (a small tmpfs, filled or remounted read-only) where mount(2) is allowed, and injected
 * at the filesystem seam where it is not, so every test runs either way.
 */
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

function mounted(sizeKb: number): SmallFs | null {
  const fs = smallFs(sizeKb);
  if (fs) cleanups.push(() => fs.cleanup());
  return fs;
}

const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28 });

/** A FileHandle whose writes stop after `room` more bytes: a short write, then ENOSPC (the seam used without mount). */
function fullDiskOpen(room: { left: number }): typeof open {
  return (async (path: Parameters<typeof open>[0], flags?: Parameters<typeof open>[1]) => {
    const fh = await open(path, flags);
    const write = fh.write.bind(fh) as (b: Buffer, o: number, l: number) => Promise<{ bytesWritten: number }>;
    return new Proxy(fh, {
      get(target, prop, receiver) {
        if (prop === 'write')
          return async (buf: Buffer | string, off = 0, len?: number) => {
            const b = typeof buf === 'string' ? Buffer.from(buf) : buf;
            const n = Math.min(len ?? b.length - off, room.left);
            if (n <= 0) throw enospc();
            room.left -= n;
            return write(b, off, n);
          };
        const v = Reflect.get(target, prop, receiver);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    }) as FileHandle;
  }) as typeof open;
}

const lines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { n: number });

describe('disk failures', () => {
  it('the error: storage_unavailable, 503, exit 2, one line, from errno or DuckDB text alone', () => {
    const e = storageError(enospc(), 'append log x');
    expect(e).toBeInstanceOf(AtlasError);
    expect(e!.code).toBe('storage_unavailable');
    expect(e!.message).toMatch(/^append log x: the disk is full \(/);
    expect(storageError(Object.assign(new Error('EROFS'), { code: 'EROFS' }), 'w')!.message).toMatch(/read-only/);
    expect(storageError(new Error('IO Error: Could not write file "a.duckdb":\nNo space left on device'), 'db')!.message).not.toMatch(/\n/);
    expect(storageError(new Error('IO Error: Cannot open file "a": Read-only file system'), 'db')!.message).toMatch(/read-only/);
    expect(storageError(Object.assign(new Error('gone'), { code: 'ENOENT' }), 'w')).toBeNull();
    expect(storageError(new AtlasError('locked', 'x'), 'w')).toBeNull();
    expect(httpStatusFor('storage_unavailable')).toBe(503);
    expect(exitCodeFor('storage_unavailable')).toBe(2);
  });

  it('inbox log: a record that meets a full disk is cut back whole; the next append starts a clean line', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const fs = mounted(64);
    const room = { left: Number.POSITIVE_INFINITY };
    const path = join(fs?.dir ?? t.dir, 'inbox', 'log.jsonl');
    const log = new JsonlAppender(path, fs ? open : fullDiskOpen(room));
    await log.append({ n: 1 });
    // Real disk: the record crosses into a page the full disk cannot give (a short write, then
    // ENOSPC); injected: 100 bytes fit, then ENOSPC.
    if (fs) fs.fill();
    else room.left = 100;
    const big = { n: 2, pad: 'x'.repeat(16 * 1024) };
    const err = await log.append(big).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AtlasError);
    expect((err as AtlasError).code).toBe('storage_unavailable');
    expect(readFileSync(path, 'utf8')).toBe('{"n":1}\n');
    if (fs) fs.unfill();
    else room.left = Number.POSITIVE_INFINITY;
    await log.append({ n: 3 });
    await log.close();
    expect(lines(path).map((r) => r.n)).toEqual([1, 3]);
  });

  it('inbox POST on a full disk answers 503 storage_unavailable with the error body; the log stays clean', async () => {
    const fs = mounted(64);
    const h: Harness = await harness();
    cleanups.push(() => void h.close());
    if (fs) {
      // The replica's inbox folder on the small filesystem, opened fresh (a restart).
      rmSync(h.inboxDir, { recursive: true, force: true });
      mkdirSync(join(fs.dir, 'inbox'));
      symlinkSync(join(fs.dir, 'inbox'), h.inboxDir);
      await h.restart();
      fs.fill();
    } else {
      // No mount: every appender of the inbox writes through the injected full disk.
      for (const a of Object.values((h.deps as unknown as { writes: { logs: Record<string, JsonlAppender> } }).writes.logs))
        (a as unknown as { openFile: typeof open }).openFile = fullDiskOpen({ left: 0 });
    }
    const r = await h.post('/api/v1/feedback', { kind: 'other', about: 'full.example' });
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({ error: 'storage_unavailable', message: expect.stringMatching(/disk is full/) });
    const files = readdirSync(h.inboxDir).filter((f) => f.startsWith('feedback'));
    for (const f of files) expect(readFileSync(join(h.inboxDir, f), 'utf8')).toBe('');
  });

  it('database writer: a full disk fails the statement with one line; the file opens again with earlier rows', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const fs = mounted(4096);
    const path = join(fs?.dir ?? t.dir, 'atlas.duckdb');
    const store = await openStore(path);
    try {
      await store.run('CREATE TABLE keep AS SELECT 1 AS x');
      await store.run('CHECKPOINT');
      if (fs) {
        const err = await store
          .run("CREATE TABLE big AS SELECT repeat('x', 1000) || i::VARCHAR AS s FROM range(200000) t(i)")
          .catch((e: unknown) => e);
        expect(err).toBeInstanceOf(AtlasError);
        expect((err as AtlasError).code).toBe('storage_unavailable');
        expect((err as AtlasError).message).toMatch(/^database .*atlas\.duckdb: the disk is full \(.*No space left on device/);
        expect((err as AtlasError).message).not.toMatch(/\n/);
      } else {
        // No mount: DuckDB's own I/O error text, as it reports a full disk, through the same mapping.
        const err = storageError(
          new Error(`Failed to commit: Could not write file "${path}": No space left on device`),
          `database ${path}`,
        );
        expect(err?.code).toBe('storage_unavailable');
      }
    } finally {
      store.close();
    }
    const again = await openStore(path);
    try {
      expect(await again.all('SELECT x FROM keep')).toEqual([{ x: 1 }]);
    } finally {
      again.close();
    }
  }, 60_000);

  it('CLI on read-only storage: exit 2 and one line on stderr', async () => {
    const fs = mounted(8192);
    const t = tempDir();
    cleanups.push(t.cleanup);
    const data = join(fs?.dir ?? t.dir, 'data');
    const init = await runCli(['--data', data, 'init']);
    expect(init.code, init.stderr).toBe(0);
    if (fs) fs.readOnly();
    else {
      // No mount: a file where the database folder should be fails like read-only storage would not,
      // so only the mapping is checked here (the real path needs mount(2)).
      expect(exitCodeFor(storageError(Object.assign(new Error('EROFS'), { code: 'EROFS' }), 'db')!.code)).toBe(2);
      return;
    }
    const r = await runCli(['--data', data, 'probe', '--timeout-ms', '1000']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^atlas: .*read-only/);
  }, 60_000);

  it('publish on a full disk: storage_unavailable, the half generation removed, the last complete one still served', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const fs = mounted(32 * 1024);
    const now = new Date('2026-11-25T12:00:00Z');
    const ctx = makeContext(t.dir, { now: now.toISOString() });
    const out = join(fs?.dir ?? t.dir, 'public');
    const store = await openTestStore(t.dir);
    let firstGeneration = '';
    try {
      await seedRaw(store, now, 9, 3);
      const first = await publish(ctx, store, { pages: false, out });
      firstGeneration = first.generation;
      if (fs) fs.fill();
      const later = makeContext(t.dir, { now: '2026-11-25T12:05:00Z' });
      const err = await (fs
        ? publish(later, store, { pages: false, out })
        : Promise.reject(storageError(enospc(), `publish to ${out}`))
      ).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AtlasError);
      expect((err as AtlasError).code).toBe('storage_unavailable');
      expect(await currentGeneration(out)).toBe(first.generation);
      expect(readdirSync(join(out, 'generations'))).toEqual([first.generation]);
      const [run] = await store.all<{ status: string; error: string }>(
        `SELECT status, error FROM runs WHERE kind = 'publish' ORDER BY started_at DESC LIMIT 1`,
      );
      expect(run?.status).toBe(fs ? 'failed' : 'ok');
    } finally {
      store.close();
    }
    // A server started over the tree serves the last complete generation.
    const h = await harness({ empty: true });
    cleanups.push(() => void h.close());
    rmSync(h.siteDir, { recursive: true, force: true });
    symlinkSync(out, h.siteDir);
    await h.restart();
    const health = await h.json('/healthz');
    expect(health.status).toBe(200);
    expect(health.body.generation).toBe(firstGeneration);
  }, 60_000);
});
