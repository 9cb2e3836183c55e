import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { z } from 'zod';
import { AtlasError, formatIssues, storageError } from '../../pipeline/core/errors.ts';

/**
 * Every body publish writes is validated with its contract schema first (a body that does not
 * match the contract is a bug and must not reach the published tree). Writes go into the new
 * generation folder, which nobody reads until the pointer switches, so plain writes suffice.
 * A full disk or read-only storage rejects with `storage_unavailable` naming the file; the caller
 * removes the half-written generation and never switches to it.
 */
export function validated<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
  const r = schema.safeParse(value);
  if (!r.success)
    throw new AtlasError('internal', `publish: ${what} does not match the contract: ${formatIssues(r.error.issues).slice(0, 1000)}`);
  return r.data;
}

export async function writeJson<S extends z.ZodType>(path: string, schema: S, value: unknown, what = path): Promise<z.infer<S>> {
  const body = validated(schema, value, what);
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, JSON.stringify(body));
  } catch (e) {
    throw storageError(e, `publish: writing ${what}`) ?? e;
  }
  return body;
}

/** The serialised element on one line of such a file, or null for the brackets and blank lines. */
function arrayElement(line: string): string | null {
  if (line === '[' || line === ']' || line === '') return null;
  return line.endsWith(',') ? line.slice(0, -1) : line;
}

/**
 * The elements of a small file JsonArrayWriter wrote (an index shard holds about 16 elements), one
 * serialised element per line (JSON.stringify never emits a raw newline inside a value).
 */
export function arrayLines(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const element = arrayElement(line);
    if (element !== null) out.push(element);
  }
  return out;
}

/**
 * A JSON array written element by element (`index/summaries.json` holds every tracked service:
 * 100k elements must not be one string in memory). Honors stream backpressure.
 */
export class JsonArrayWriter {
  private readonly out: WriteStream;
  private count = 0;
  private failed: Error | null = null;

  private constructor(
    out: WriteStream,
    private readonly path: string,
  ) {
    this.out = out;
    out.on('error', (e) => (this.failed = storageError(e, `publish: writing ${path}`) ?? e));
  }

  static async open(path: string): Promise<JsonArrayWriter> {
    try {
      await mkdir(dirname(path), { recursive: true });
    } catch (e) {
      throw storageError(e, `publish: writing ${path}`) ?? e;
    }
    const w = new JsonArrayWriter(createWriteStream(path), path);
    await w.write('[');
    return w;
  }

  get length(): number {
    return this.count;
  }

  private write(chunk: string): Promise<void> {
    if (this.failed) return Promise.reject(this.failed);
    if (this.out.write(chunk)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const onDrain = () => {
        this.out.off('error', onError);
        resolve();
      };
      const onError = (e: Error) => {
        this.out.off('drain', onDrain);
        reject(storageError(e, `publish: writing ${this.path}`) ?? e);
      };
      this.out.once('drain', onDrain);
      this.out.once('error', onError);
    });
  }

  push(value: unknown): Promise<void> {
    return this.pushRaw(JSON.stringify(value));
  }

  /**
   * One element already serialised (one line, no trailing comma): an incremental publish copies an
   * unchanged service's line from the previous generation's file (arrayLines) as it is.
   */
  pushRaw(json: string): Promise<void> {
    const s = `${this.count ? ',' : ''}\n${json}`;
    this.count += 1;
    return this.write(s);
  }

  async close(): Promise<void> {
    await this.write('\n]\n');
    await new Promise<void>((resolve, reject) =>
      this.out.end((e?: Error | null) => (e ? reject(storageError(e, `publish: writing ${this.path}`) ?? e) : resolve())),
    );
    if (this.failed) throw this.failed;
  }

  /** Close without caring about the content (error paths; the generation folder is removed). */
  abort(): void {
    this.out.destroy();
  }
}
