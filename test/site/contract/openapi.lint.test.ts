import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { buildOpenApi } from '../../../site/contract/index.ts';

const run = promisify(execFile);
const CLI = fileURLToPath(new URL('../../../node_modules/@redocly/cli/bin/cli.js', import.meta.url));

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; severity: string; message: string }[];
}

/**
 * The published document must pass a standard OpenAPI linter (Redocly's, recommended rules) with no
 * error and no warning. The CLI runs offline: telemetry and the update check are switched off, it
 * runs in an empty directory (no config file to pick up), and it inherits the loopback-only guard
 * through NODE_OPTIONS, so any attempt to reach the network would fail this test.
 */
async function lint(doc: unknown): Promise<LintReport> {
  const dir = mkdtempSync(join(tmpdir(), 'atlas-openapi-lint-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'openapi.json'), JSON.stringify(doc, null, 2));
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
  const args = [CLI, 'lint', '--extends=recommended', '--format=json', 'openapi.json'];
  // The CLI exits non-zero when it finds errors; the JSON report is on stdout either way.
  const out = await run(process.execPath, args, { cwd: dir, env, maxBuffer: 16 << 20 }).catch((e: { stdout?: string }) => ({
    stdout: e.stdout ?? '',
  }));
  return JSON.parse(out.stdout) as LintReport;
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('openapi.json under redocly lint (recommended)', () => {
  it('has no error and no warning', async () => {
    const report = await lint(buildOpenApi());
    expect(report.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
  });

  it('does report a defect (the check can fail)', async () => {
    const doc = structuredClone(buildOpenApi()) as { info: Record<string, unknown>; paths: Record<string, Record<string, any>> };
    delete doc.info.license;
    delete doc.paths['/api/v1/stats']!.get.responses[429];
    const report = await lint(doc);
    expect(report.problems.map((p) => p.ruleId).sort()).toEqual(['info-license', 'operation-4xx-response']);
    expect(report.totals.warnings).toBe(2);
  });
});
