import { readdirSync } from 'node:fs';
import { scanTree } from './site/publish/seal.ts';
import { buildChecksums, checksumsBytes, SELF_FILES } from './site/publish/checksums.ts';
import { linkedHashes } from './site/publish/incremental.ts';
const root = '/tmp/pw100k/public/generations/';
const gens = readdirSync(root).sort();
const prev = root + gens.at(-2)!, cur = root + gens.at(-1)!;
const paths = (await scanTree(cur, { skip: SELF_FILES, known: new Map([['x', { bytes: 0, sha256: '' }]]) }).catch(() => [])).length;
console.log('files', paths);
for (let k = 0; k < 2; k++) {
let t = performance.now();
const all = (await import('node:fs')).readFileSync(cur + '/checksums.json', 'utf8');
const list = (JSON.parse(all).files as { path: string }[]).map((f) => f.path);
console.log('list', Math.round(performance.now() - t)); t = performance.now();
const known = await linkedHashes(prev, list);
console.log('linkedHashes', Math.round(performance.now() - t), known.size); t = performance.now();
const found = await scanTree(cur, { skip: SELF_FILES, known });
console.log('scanTree', Math.round(performance.now() - t), found.length); t = performance.now();
const c = buildChecksums({ generation: 'g', createdAt: new Date(), keyId: 'b'.repeat(64), files: found.map((f) => ({ path: f.path, bytes: f.bytes, sha256: f.sha256! })) });
console.log('build', Math.round(performance.now() - t)); t = performance.now();
const b = checksumsBytes(c);
console.log('bytes', Math.round(performance.now() - t), b.length);
}
