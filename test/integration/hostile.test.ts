import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CaseResult,
  type ChildLimits,
  HOSTILE_CASES,
  type HostileServer,
  runCases,
  startHostileServer,
} from '../bench/hostile-cases.ts';
import { tempDir } from '../helpers/context.ts';

/**
 * Hostile and broken input at the edges (docs/notes/hostile-input.md): every case of the table runs
 * the real code path in a child process against a real loopback server. Asserted here: the child
 * finished on its own (the code's own limits ended it), the recorded reason is the expected one,
 * the facts read back hold (sanitized text, no snapshot of a cut page), and every row written
 * before the child ran is unchanged. Peak RSS and time are the bench's (`npm run bench -- hostile`),
 * never asserted here.
 */
// A 4 MiB ingest cap (production: 64 MiB) so the size cases reach it within the deadline under load.
const LIMITS: ChildLimits = { timeoutMs: 1_000, deadlineMs: 3_000, maxBytes: 4 * 1024 * 1024 };
const results = new Map<string, CaseResult>();
let server: HostileServer;
const cleanups: Array<() => void> = [];

beforeAll(async () => {
  server = await startHostileServer({ size: 500, maxBytes: LIMITS.maxBytes });
  // One child per target (cases in order inside it), two at a time: the machine has two cores.
  const limit = pLimit(2);
  const targets = [...new Set(HOSTILE_CASES.map((c) => c.target))];
  await Promise.all(
    targets.map((target) =>
      limit(async () => {
        const cases = HOSTILE_CASES.filter((c) => c.target === target);
        const dirs = cases.map(() => {
          const t = tempDir('atlas-hostile-');
          cleanups.push(t.cleanup);
          return t.dir;
        });
        for (const r of await runCases(cases, server, dirs, LIMITS)) results.set(r.name, r);
      }),
    ),
  );
}, 300_000);

afterAll(async () => {
  await server?.close();
  for (const d of cleanups) d();
});

describe('hostile input', () => {
  it.each(HOSTILE_CASES.map((c) => [c.name, c] as const))('%s: bounded, reason recorded, earlier rows intact', (_name, c) => {
    const r = results.get(c.name)!;
    expect(r.exitCode, 'the child finished on its own').toBe(0);
    expect(r.reason).toMatch(c.reason);
    if (c.facts) expect(r.facts, r.reason).toMatchObject(c.facts);
    expect(r.earlierRowsLost, 'rows written before the run are untouched').toBe(0);
  });
});
