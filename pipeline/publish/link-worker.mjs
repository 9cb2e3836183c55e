// @ts-check
/**
 * The link worker of incremental.ts linkInBackground: hard-links `rels` of generation `from` into
 * generation `to` in one synchronous loop and answers, for each path in the order given, 1 when it
 * was linked. Plain JavaScript so that it loads without a TypeScript loader (the publish runs under
 * tsx, the tests under vitest); `// @ts-check` keeps it under the typecheck.
 */
import { linkSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

/** @type {{ from: string; to: string; rels: string[] }} */
const { from, to, rels } = workerData;
const ok = new Uint8Array(rels.length);
for (let i = 0; i < rels.length; i++) {
  try {
    linkSync(`${from}/${rels[i]}`, `${to}/${rels[i]}`);
    ok[i] = 1;
  } catch {
    ok[i] = 0;
  }
}
parentPort?.postMessage(ok, [ok.buffer]);
