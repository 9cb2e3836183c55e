import { Worker } from 'node:worker_threads';
import { storageError } from '../core/errors.ts';

/**
 * The files of a generation written on a worker thread, while the publishing thread shapes and
 * renders the next services. A full publish writes two files per service; creating a file is
 * kernel work the publishing thread would otherwise wait for (in a profile, `open` outweighed
 * shaping), and an asynchronous
 * write through libuv's pool cost its promises and callbacks on that thread instead.
 *
 * The worker (write-worker.mjs) also hashes each file: the seal
 * needs every written file's size and SHA-256 and should not read them back. Bodies cross as
 * transferred byte arrays, in batches. Memory is bounded: `put` waits once more than `maxQueued`
 * bytes are with the worker.
 *
 * `replace`: the path may already be a hard link to a file of another generation (publish links
 * the previous generation's files before it knows which services changed). Writing through such a
 * name would change the other generation's file, so each file is written under a temporary name
 * and renamed over the link, which replaces the name and leaves the linked file untouched.
 */
/** Plain JavaScript: started without the parent's loader flags (`execArgv: []`), as the link worker (incremental.ts). */
const WORKER = new URL('./write-worker.mjs', import.meta.url);

export interface WrittenFile {
  bytes: number;
  sha256: string;
}

interface Batch {
  rels: string[];
  bytes: number;
  settled: Promise<void>;
  done: () => void;
}

export class FileWriter {
  private readonly worker: Worker;
  private readonly encoder = new TextEncoder();
  private paths: string[] = [];
  private rels: string[] = [];
  private bodies: Uint8Array[] = [];
  private pendingBytes = 0;
  private queuedBytes = 0;
  private seq = 0;
  /** Batches with the worker, oldest first (a Map keeps insertion order). */
  private readonly inFlight = new Map<number, Batch>();
  private failed: Error | null = null;
  /** Size and SHA-256 of every file written so far, by generation-relative path. */
  readonly written = new Map<string, WrittenFile>();

  constructor(
    private readonly root: string,
    private readonly opts: { batchFiles?: number; maxQueuedBytes?: number; replace?: boolean } = {},
  ) {
    this.worker = new Worker(WORKER, { execArgv: [], workerData: { replace: opts.replace === true } });
    this.worker.on('message', (m: { seq: number; out?: (number | string)[]; error?: { message: string; code?: string } }) => {
      const batch = this.inFlight.get(m.seq);
      if (!batch) return;
      this.inFlight.delete(m.seq);
      this.queuedBytes -= batch.bytes;
      if (m.error) {
        const e = Object.assign(new Error(m.error.message), { code: m.error.code });
        this.failed ??= storageError(e, `publish: writing ${root}`) ?? e;
      } else if (m.out)
        for (let i = 0; i < batch.rels.length; i++)
          this.written.set(batch.rels[i]!, { bytes: m.out[2 * i] as number, sha256: m.out[2 * i + 1] as string });
      batch.done();
    });
    this.worker.on('error', (e) => {
      this.failed ??= e;
      for (const batch of this.inFlight.values()) batch.done();
      this.inFlight.clear();
    });
  }

  /** Queue one file (`rel` relative to the root, a path publish built itself); throws an earlier write's failure. */
  async put(rel: string, text: string): Promise<void> {
    if (this.failed) throw this.failed;
    const body = this.encoder.encode(text);
    this.paths.push(`${this.root}/${rel}`);
    this.rels.push(rel);
    this.bodies.push(body);
    this.pendingBytes += body.length;
    if (this.paths.length >= (this.opts.batchFiles ?? 64)) this.send();
    // Backpressure: the bodies with the worker stay under the bound.
    while (this.queuedBytes > (this.opts.maxQueuedBytes ?? 64 << 20) && this.inFlight.size)
      await this.inFlight.values().next().value?.settled;
  }

  /** Every queued file written (or the first failure thrown). */
  async flush(): Promise<void> {
    this.send();
    await Promise.all([...this.inFlight.values()].map((b) => b.settled));
    if (this.failed) throw this.failed;
  }

  /** Stop the worker (after flush; on an error path queued files may be left unwritten). */
  async close(): Promise<void> {
    await this.worker.terminate();
  }

  private send(): void {
    if (!this.paths.length) return;
    let done!: () => void;
    const settled = new Promise<void>((resolve) => {
      done = resolve;
    });
    const bodies = this.bodies;
    const seq = this.seq++;
    this.inFlight.set(seq, { rels: this.rels, bytes: this.pendingBytes, settled, done });
    this.queuedBytes += this.pendingBytes;
    this.worker.postMessage(
      { seq, paths: this.paths, bodies },
      bodies.map((b) => b.buffer as ArrayBuffer),
    );
    this.paths = [];
    this.rels = [];
    this.bodies = [];
    this.pendingBytes = 0;
  }
}
