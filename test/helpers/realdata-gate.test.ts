import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REQUIRE_REALDATA_ENV, realdataGate } from './realdata-gate.ts';
import { tempDir } from './context.ts';

/** The gate that lets a fresh clone pass `npm test` without the third-party real data, and CI fail without it. */
describe('realdataGate', () => {
  it('is open when every file is there, and prints nothing', () => {
    const t = tempDir();
    try {
      mkdirSync(join(t.dir, 'x402'));
      writeFileSync(join(t.dir, 'x402', 'a.json'), '{}');
      const printed: string[] = [];
      const gate = realdataGate('suite', ['x402/a.json'], { ATLAS_REALDATA: t.dir }, (l) => printed.push(l));
      expect(gate).toEqual({ present: true, message: '' });
      expect(printed).toEqual([]);
    } finally {
      t.cleanup();
    }
  });

  it('skips a suite with one printed line naming it, the missing file and how to run it', () => {
    const t = tempDir();
    try {
      const printed: string[] = [];
      const gate = realdataGate('my suite', ['x402/a.json', 'mcp/b.json'], { ATLAS_REALDATA: t.dir }, (l) => printed.push(l));
      expect(gate.present).toBe(false);
      expect(printed).toEqual([gate.message]);
      expect(gate.message).toContain('skipped my suite');
      expect(gate.message).toContain(join(t.dir, 'x402/a.json'));
      expect(gate.message).toContain(join(t.dir, 'mcp/b.json'));
      expect(gate.message).toMatch(/\.\.\/shared\/realdata.*ATLAS_REALDATA/);
      expect(gate.message).not.toContain('\n');
    } finally {
      t.cleanup();
    }
  });

  it(`fails instead of skipping when ${REQUIRE_REALDATA_ENV}=1 (CI)`, () => {
    const t = tempDir();
    try {
      const printed: string[] = [];
      const env = { ATLAS_REALDATA: t.dir, [REQUIRE_REALDATA_ENV]: '1' };
      expect(() => realdataGate('my suite', ['x402/a.json'], env, (l) => printed.push(l))).toThrow(/my suite: real data required/);
      expect(printed).toEqual([]);
    } finally {
      t.cleanup();
    }
  });
});
