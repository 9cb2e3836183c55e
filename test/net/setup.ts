import { appendFileSync, readFileSync } from 'node:fs';
import { afterEach } from 'vitest';

/**
 * Per-file setup for every test: fails the test during which anything tried to leave loopback.
 * The refusals themselves come from test/net/no-egress.mjs (loaded into every test process and
 * every child by vitest.config.ts); this turns a recorded refusal into a failed test, so a broken
 * guard in Atlas is a red test, never a packet.
 */
type Violation = { id: string; pid: number; kind: string; target: string; stack?: string };

const VIOLATIONS = Symbol.for('atlas.noEgress.violations');
const INSTALLED = Symbol.for('atlas.noEgress.installed');
const store = globalThis as unknown as Record<symbol, unknown>;

if (!store[INSTALLED]) throw new Error('the no-egress guard is not loaded: run the tests through vitest.config.ts (npm test)');

// One refusal log per test process: with several vitest workers, a log shared by all of them would
// hand one worker's refusals (an SSRF test's deliberate ones included) to whatever test another
// worker is running. Children inherit this process's log through the environment; global.ts reads
// every log in the folder.
process.env.ATLAS_NO_EGRESS_BASE ??= process.env.ATLAS_NO_EGRESS_LOG ?? '';
const base = process.env.ATLAS_NO_EGRESS_BASE;
if (base) process.env.ATLAS_NO_EGRESS_LOG = `${base}.${process.pid}`;

const inProcess = (): Violation[] => (store[VIOLATIONS] as Violation[] | undefined) ?? [];

function fromChildren(): Violation[] {
  const file = process.env.ATLAS_NO_EGRESS_LOG;
  if (!file) return [];
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Violation)
      .filter((v) => v.pid !== process.pid);
  } catch {
    return [];
  }
}

let seenHere = 0;
let seenChildren = fromChildren().length;

function drain(): Violation[] {
  const here = inProcess().slice(seenHere);
  const children = fromChildren().slice(seenChildren);
  seenHere += here.length;
  seenChildren += children.length;
  return [...here, ...children];
}

/**
 * Everything refused since the last call, acknowledged as expected: for the guard's own tests,
 * which aim at addresses off loopback on purpose. Acknowledged refusals fail neither the test nor
 * the run (test/net/global.ts).
 */
export function takeRefusals(): Violation[] {
  const taken = drain();
  const file = process.env.ATLAS_NO_EGRESS_LOG;
  if (file && taken.length) appendFileSync(`${file}.acknowledged`, taken.map((v) => `${v.id}\n`).join(''));
  return taken;
}

afterEach(() => {
  const fresh = drain();
  if (fresh.length) {
    const lines = fresh.map((v) => `  pid ${v.pid}: ${v.kind} to ${v.target}`).join('\n');
    throw new Error(`this test tried to reach an address off loopback (refused, nothing was sent):\n${lines}`);
  }
});
