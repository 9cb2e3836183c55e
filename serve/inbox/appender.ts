import { closeSync, fsyncSync, openSync } from 'node:fs';
import { mkdir, open, stat, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { storageError } from '../../pipeline/core/errors.ts';

/**
 * A durable JSONL append log (docs/design.md, decision 2): `append` resolves only after the line is
 * written and fsynced, so a 201 means the record is on disk. Appends to one file are serialized
 * (one write + fsync at a time, in call order). When the file did not end with a newline (a torn
 * write from a crash), a newline is written first so the new record starts a clean line.
 * A failed write or fsync (a full disk, a read-only mount) is cut back: the file is truncated to
 * its length before the record, so no half line stays; if even that fails the handle is dropped and
 * the next append starts on a new line (see above). It rejects with `storage_unavailable` (HTTP 503)
 * when the disk is full or read-only, and with the original error otherwise.
 */
export class JsonlAppender {
  private fh: FileHandle | null = null;
  /** Bytes in the file after the last complete record (where a failed append is cut back to). */
  private size = 0;
  private chain: Promise<void> = Promise.resolve();
  private closed = false;
  /** Called after each record is written and fsynced, with the write + fsync time in seconds (metrics). */
  onAppend: ((seconds: number) => void) | undefined;

  /** `openFile` is the filesystem seam (tests inject a failing disk where none can be mounted). */
  constructor(
    readonly path: string,
    private readonly openFile: typeof open = open,
  ) {}

  private async handle(): Promise<FileHandle> {
    if (this.fh) return this.fh;
    await mkdir(dirname(this.path), { recursive: true });
    let size = 0;
    let existed = true;
    try {
      size = (await stat(this.path)).size;
    } catch {
      existed = false;
    }
    const fh = await this.openFile(this.path, 'a+');
    if (size > 0) {
      const last = Buffer.alloc(1);
      await fh.read(last, 0, 1, size - 1);
      if (last[0] !== 0x0a) {
        await fh.write('\n');
        size += 1;
      }
    }
    if (!existed) {
      // Make the new directory entry durable too.
      try {
        const d = openSync(dirname(this.path), 'r');
        try {
          fsyncSync(d);
        } finally {
          closeSync(d);
        }
      } catch {
        // Some filesystems do not allow fsync on a directory; the file's own fsync still holds.
      }
    }
    this.fh = fh;
    this.size = size;
    return fh;
  }

  /** Write all of `buf` (a short write, as on a filling disk, is continued until it fails), then fsync. */
  private async writeRecord(fh: FileHandle, buf: Buffer): Promise<void> {
    let off = 0;
    while (off < buf.length) {
      const { bytesWritten } = await fh.write(buf, off, buf.length - off);
      off += bytesWritten;
    }
    await fh.sync();
  }

  /** After a failed append: cut the file back to its last complete record, or forget the handle. */
  private async cutBack(fh: FileHandle): Promise<void> {
    try {
      await fh.truncate(this.size);
      await fh.sync();
    } catch {
      this.fh = null; // reopening checks the last byte and starts the next record on a new line
      await fh.close().catch(() => undefined);
    }
  }

  append(record: unknown): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`append log ${this.path} is closed`));
    const line = Buffer.from(`${JSON.stringify(record)}\n`);
    const run = async () => {
      let fh: FileHandle;
      try {
        fh = await this.handle();
      } catch (e) {
        throw storageError(e, `append log ${this.path}`) ?? e;
      }
      const t0 = performance.now();
      try {
        await this.writeRecord(fh, line);
      } catch (e) {
        await this.cutBack(fh);
        throw storageError(e, `append log ${this.path}`) ?? e;
      }
      this.size += line.length;
      this.onAppend?.((performance.now() - t0) / 1000);
    };
    const p = this.chain.then(run, run);
    this.chain = p.catch(() => undefined);
    return p;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.chain;
    await this.fh?.close();
    this.fh = null;
  }
}
