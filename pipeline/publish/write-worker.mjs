// @ts-check
/**
 * The worker of file-writer.ts: writes each batch of files it is sent and answers with every file's
 * size and SHA-256, or the first failure (its message and errno code). With `replace`, each file is
 * written under a temporary name and renamed over the path, which may be a hard link to another
 * generation's file. Plain JavaScript so that it loads without a TypeScript loader (the publish
 * runs under tsx, the tests under vitest); `// @ts-check` keeps it under the typecheck.
 */
import { createHash } from 'node:crypto';
import { renameSync, writeFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

/** @type {boolean} */
const replace = workerData.replace;

/** @param {{ seq: number; paths: string[]; bodies: Uint8Array[] }} m */
function writeBatch({ seq, paths, bodies }) {
  /** @type {(number | string)[]} */
  const out = [];
  try {
    for (let i = 0; i < paths.length; i++) {
      const path = /** @type {string} */ (paths[i]);
      const body = /** @type {Uint8Array} */ (bodies[i]);
      if (replace) {
        writeFileSync(`${path}.atlas-tmp`, body);
        renameSync(`${path}.atlas-tmp`, path);
      } else writeFileSync(path, body);
      out.push(body.length, createHash('sha256').update(body).digest('hex'));
    }
    parentPort?.postMessage({ seq, out });
  } catch (e) {
    const err = /** @type {{ message?: unknown; code?: unknown } | null} */ (e);
    parentPort?.postMessage({ seq, error: { message: String(err?.message), code: err?.code } });
  }
}

parentPort?.on('message', writeBatch);
