import { closeSync, fsyncSync, openSync } from 'node:fs';
import { mkdir, open, stat, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * A durable JSONL append log (docs/design.md, decision 2): `append` resolves only after the line is
 * written and fsynced, so a 201 means the record is on disk. Appends to one file are serialized
 * (one write + fsync at a time, in call order). When the file did not end with a newline (a torn
 * write from a crash), a newline is written first so the new record starts a clean line.
 */
export class JsonlAppender {
  private fh: FileHandle | null = null;
  private chain: Promise<void> = Promise.resolve();
  private closed = false;
  /** Called after each record is written and fsynced, with the write + fsync time in seconds (metrics). */
  onAppend: ((seconds: number) => void) | undefined;

  constructor(readonly path: string) {}

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
    const fh = await open(this.path, 'a+');
    if (size > 0) {
      const last = Buffer.alloc(1);
      await fh.read(last, 0, 1, size - 1);
      if (last[0] !== 0x0a) await fh.write('\n');
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
    return fh;
  }

  append(record: unknown): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`append log ${this.path} is closed`));
    const line = `${JSON.stringify(record)}\n`;
    const run = async () => {
      const fh = await this.handle();
      const t0 = performance.now();
      await fh.write(line);
      await fh.sync();
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
