import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as common from '../../../site/contract/common.ts';
import { CRITERION_IDS } from '../../../site/contract/directory.ts';
import { ERROR_CODES } from '../../../site/contract/error.ts';

/**
 * One contract: site/contract depends on zod alone (imports point one way: the pipeline, publish and
 * serve import the contract, never the reverse), and every closed set of values is written once, in
 * the contract.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const CONTRACT = join(ROOT, 'site/contract');

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...tsFiles(p));
    else if (name.endsWith('.ts')) out.push(p);
  }
  return out;
}

const SPECIFIER = /(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s+['"]([^'"]+)['"]/g;
const specifiers = (text: string): string[] => [...text.matchAll(SPECIFIER)].map((m) => m[1]!);

describe('site/contract', () => {
  it('imports zod and its own files only', () => {
    const files = tsFiles(CONTRACT);
    expect(files.length).toBeGreaterThan(10);
    const outside: string[] = [];
    for (const f of files) {
      for (const s of specifiers(readFileSync(f, 'utf8'))) {
        if (s === 'zod') continue;
        const target = s.startsWith('.') ? resolve(dirname(f), s) : s;
        if (!target.startsWith(`${CONTRACT}/`)) outside.push(`${relative(ROOT, f)} → ${s}`);
      }
    }
    expect(outside).toEqual([]);
  });

  it('the import scan sees imports (a file importing the pipeline would be caught)', () => {
    expect(specifiers(`import { z } from 'zod';\nimport { X } from '../../pipeline/core/errors.ts';`)).toEqual([
      'zod',
      '../../pipeline/core/errors.ts',
    ]);
  });

  it('each closed set of values is written once in production code: in the contract', () => {
    const sets: Record<string, readonly string[]> = {
      SERVICE_TYPES: common.SERVICE_TYPES,
      NETWORKS_SOURCES: common.NETWORKS_SOURCES,
      FRESHNESS_VALUES: common.FRESHNESS_VALUES,
      CHECK_INTERVAL_NAMES: common.CHECK_INTERVAL_NAMES,
      TERMS_CHANGE_KINDS: common.TERMS_CHANGE_KINDS,
      PASS_RULES: common.PASS_RULES,
      CHECK_KINDS: common.CHECK_KINDS,
      RUN_STATUSES: common.RUN_STATUSES,
      JOB_KINDS: common.JOB_KINDS,
      FEEDBACK_KINDS: common.FEEDBACK_KINDS,
      OUTCOMES: common.OUTCOMES,
      FAILURE_KINDS: common.FAILURE_KINDS,
      SORTS: common.SORTS,
      ROADMAP_STATUSES: common.ROADMAP_STATUSES,
      CRITERION_IDS,
      ERROR_CODES,
    };
    const files = ['pipeline', 'serve', 'site', 'cli'].flatMap((d) => tsFiles(join(ROOT, d)));
    const texts = files.map((f) => [relative(ROOT, f), readFileSync(f, 'utf8').replace(/\s*\/\/[^\n]*/g, '')] as const);
    const written: Record<string, string[]> = {};
    for (const [name, values] of Object.entries(sets)) {
      // The list as source text (`'a', 'b', 'c'`), whatever the quotes and line breaks.
      const re = new RegExp(values.map((v) => `['"]${v.replace(/[/.]/g, '\\$&')}['"]`).join(String.raw`\s*,\s*`));
      written[name] = texts.filter(([, t]) => re.test(t)).map(([f]) => f);
    }
    for (const [name, where] of Object.entries(written)) {
      expect(where.length, `${name} written in ${where.join(', ')}`).toBe(1);
      expect(where[0]!.startsWith('site/contract/'), `${name} written in ${where[0]}`).toBe(true);
    }
  });

  it('the sunset day and the id pattern are written once', () => {
    const files = ['pipeline', 'serve', 'site', 'cli'].flatMap((d) => tsFiles(join(ROOT, d)));
    const holders = (needle: string) => files.filter((f) => readFileSync(f, 'utf8').includes(needle)).map((f) => relative(ROOT, f));
    expect(holders(common.SCHEDULE_TIER_SUNSET)).toEqual(['site/contract/common.ts']);
    expect(holders('(svc|cand)')).toEqual(['site/contract/common.ts']);
    expect(common.SCHEDULE_TIER_SUNSET_AT.toISOString()).toBe(`${common.SCHEDULE_TIER_SUNSET}T00:00:00.000Z`);
  });
});
