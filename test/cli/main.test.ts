import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { commandPath } from '../../cli/commands/examples.ts';
import { buildProgram } from '../../cli/main.ts';
import { runCli, runCliInProcess } from '../helpers/cli.ts';
import { tempDir } from '../helpers/context.ts';

describe('cli basics', () => {
  it('rejects a bad --now with exit 2 and one line', async () => {
    const t = tempDir();
    try {
      const r = await runCli(['--data', t.dir, '--now', 'yesterday', 'init']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/--now must be an ISO-8601 time/);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    } finally {
      t.cleanup();
    }
  }, 60_000);

  // The first init is a real process; the rest run the same program in this process (runCliInProcess).
  it('init twice, then sql prints JSON rows with ISO timestamps', async () => {
    const t = tempDir();
    try {
      expect((await runCli(['--data', t.dir, '--now', '2026-01-02T03:04:05Z', 'init'])).code).toBe(0);
      expect((await runCliInProcess(['--data', t.dir, 'init'])).code).toBe(0);
      const r = await runCliInProcess([
        '--data',
        t.dir,
        'sql',
        'SELECT version, applied_at FROM schema_migrations WHERE version = 1',
        '--format',
        'json',
      ]);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual([{ version: 1, applied_at: '2026-01-02T03:04:05.000Z' }]);
      const counts = await runCliInProcess(['--data', t.dir, 'sql', 'SELECT count(*) AS n FROM services', '--format', 'json']);
      expect(JSON.parse(counts.stdout)).toEqual([{ n: 0 }]);
      const bad = await runCliInProcess(['--data', t.dir, 'sql', 'SELECT * FROM nope']);
      expect(bad.code).toBe(2);
    } finally {
      t.cleanup();
    }
  }, 60_000);
});

describe('cli help', () => {
  it('every registered command, and atlas itself, shows an Example section after its options', () => {
    const program = buildProgram();
    const all: Command[] = [];
    const walk = (c: Command) => {
      all.push(c);
      for (const s of c.commands) walk(s);
    };
    walk(program);
    expect(all.length).toBeGreaterThan(15);
    for (const cmd of all) {
      let out = '';
      cmd.configureOutput({ writeOut: (s) => (out += s), writeErr: (s) => (out += s) });
      cmd.outputHelp();
      const name = commandPath(cmd) || 'atlas';
      expect(out, name).toMatch(/\nExamples?:\n {2}\$ \S/);
    }
  });
});
