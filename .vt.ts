import { openTestStore } from './test/helpers/context.ts';
import { verifyGeneration } from './pipeline/verify/index.ts';
const now = new Date('2026-11-25T12:40:00Z');
const store = await openTestStore('/tmp/pw100k', now);
try {
  const t = performance.now();
  const r = await verifyGeneration(store, '/tmp/pw100k/public', { sample: 50 });
  console.log(Math.round(performance.now() - t), 'ms', r.checked, r.mismatches.length);
} finally { store.close(); }
