import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { main } from '../../../cli/main.ts';
import { publish } from '../../../pipeline/publish/index.ts';
import { runCli } from '../../helpers/cli.ts';
import { makeContext, openTestStore, tempDir } from '../../helpers/context.ts';
import { seedRaw } from './seed.ts';

/** The CLI in this process (commander wiring and the top-level error mapping), output captured. */
async function atlas(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((c) => {
    stdout += String(c);
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((c) => {
    stderr += String(c);
    return true;
  });
  try {
    return { code: await main(args), stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

/** `atlas verify` as a mirror operator runs it. */
describe('atlas verify --tree', () => {
  it('exits 0 on an intact tree, 1 naming each problem, 2 on bad usage; creates nothing', async () => {
    const { dir, cleanup } = tempDir('atlas-verify-cli-');
    try {
      const store = await openTestStore(dir);
      let gen: string;
      try {
        await seedRaw(store, new Date('2026-11-25T12:00:00Z'), 6, 2);
        gen = (await publish(makeContext(dir), store, { pages: false })).dir;
      } finally {
        store.close();
      }
      const publicDir = join(dir, 'public');
      const keyFile = join(dir, 'pinned-key.json');
      writeFileSync(keyFile, readFileSync(join(gen, 'atlas-signing-key.json')));
      const nodata = join(dir, 'verifier-data');
      const verify = (...args: string[]) => atlas(['--data', nodata, 'verify', ...args]);

      const ok = await verify('--tree', publicDir, '--key', keyFile);
      expect(ok.code, ok.stderr).toBe(0);
      expect(ok.stdout).toMatch(/^ok: \d+ files of generation \S+ match checksums\.json, signed by key [0-9a-f]{64} \(pinned\)\n$/);
      expect(ok.stderr).toBe('');

      writeFileSync(join(gen, 'api', 'v1', 'stats.json'), '{"api_status":"preview"}');
      const text = await verify('--tree', gen);
      expect(text.code).toBe(1);
      expect(text.stdout).toMatch(/^api\/v1\/stats\.json: listed \d+ bytes, found 24 bytes\nFAILED: 1 problem\(s\)/);
      expect(text.stderr).toMatch(/^atlas: verify: 1 problem\(s\) in /);

      for (const [args, msg] of [
        [[], /no database at /],
        [['--tree', join(dir, 'nope')], /no such directory/],
        [['--tree', gen, '--public-key', 'AAAA'], /--public-key: a public key must be/],
        [['--tree', gen, '--key', keyFile, '--public-key', 'AAAA'], /not both/],
        [['--tree', gen, '--key', join(dir, 'missing.pem')], /cannot read the file/],
      ] as [string[], RegExp][]) {
        const r = await verify(...args);
        expect(r.code, args.join(' ')).toBe(2);
        expect(r.stderr).toMatch(msg);
        expect(r.stderr.trim().split('\n')).toHaveLength(1);
        expect(r.stdout).toBe('');
      }

      // Once as a real child process (as a script would run it): exit status and --json on stdout.
      const child = await runCli(['--data', nodata, 'verify', '--tree', gen, '--json']);
      expect(child.code).toBe(1);
      const report = JSON.parse(child.stdout) as { ok: boolean; problems: { path: string; problem: string }[] };
      expect(report.ok).toBe(false);
      expect(report.problems.map((p) => [p.path, p.problem])).toEqual([['api/v1/stats.json', 'size_mismatch']]);

      // Verifying is read-only: no data folder, secret or key appears on the verifier's side.
      expect(existsSync(nodata)).toBe(false);
    } finally {
      cleanup();
    }
  }, 60_000);
});
