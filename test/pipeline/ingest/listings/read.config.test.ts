import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, parseConfig } from '../../../../pipeline/core/config.ts';
import { PROJECT_DATA, PROJECT_ROOT, resolvePaths } from '../../../../pipeline/core/paths.ts';
import { openStore } from '../../../../pipeline/store/store.ts';
import { runCliInProcess } from '../../../helpers/cli.ts';
import { tempDir } from '../../../helpers/context.ts';
import { writeListingFile } from '../../compute/fixtures.ts';

const NOW = '2026-11-25T12:00:00Z';
const APPROVED = '2026-11-20T00:00:00.000Z';

/** The services table of a data folder, read-only (the CLI has exited and released it). */
async function services(data: string): Promise<Array<{ id: string; active: boolean }>> {
  const store = await openStore(join(data, 'atlas.duckdb'), { readOnly: true });
  try {
    return await store.all<{ id: string; active: boolean }>('SELECT id, active FROM services ORDER BY id');
  } finally {
    store.close();
  }
}

describe('config paths.listings', () => {
  it('defaults to the checkout data/listings; relative to the project root; validated', () => {
    expect(resolvePaths('/tmp/elsewhere').listings).toBe(join(PROJECT_DATA, 'listings'));
    const cfg = parseConfig({});
    expect(cfg.paths.listings).toBe('data/listings');
    expect(resolvePaths('d', cfg.paths.listings).listings).toBe(join(PROJECT_DATA, 'listings'));
    expect(resolvePaths('d', 'ops/listings').listings).toBe(join(PROJECT_ROOT, 'ops', 'listings'));
    expect(resolvePaths('d', '/srv/listings').listings).toBe('/srv/listings');
    expect(() => parseConfig({ paths: { listings: '' } })).toThrow(/paths\.listings/);
    expect(() => parseConfig({ paths: { listings: 3 } })).toThrow(/paths\.listings/);
  });

  it('a cycle and `atlas ingest listings` read the folder the config names, outside the checkout; --dir still overrides', async () => {
    const t = tempDir('atlas-listings-config-');
    try {
      const outside = join(t.dir, 'elsewhere', 'listings');
      const other = join(t.dir, 'other-listings');
      mkdirSync(outside, { recursive: true });
      mkdirSync(other, { recursive: true });
      writeListingFile(outside, {
        slug: 'outside',
        approvedAt: APPROVED,
        operations: [{ id: 'primary', kind: 'call', primary: true, interval: 'hourly' }],
      });
      writeListingFile(other, {
        slug: 'other',
        approvedAt: APPROVED,
        operations: [{ id: 'primary', kind: 'call', primary: true, interval: 'hourly' }],
      });
      const config = join(t.dir, 'atlas.config.json');
      // No registries; the listing's host resolves to loopback, where nothing listens (probes fail, traffic stays local).
      writeFileSync(
        config,
        JSON.stringify({
          registries: [],
          probe: { resolve: { '*.example': '127.0.0.1' }, allowPrivate: true, timeoutMs: 1000 },
          paths: { listings: outside },
        }),
      );
      expect(loadConfig(config).paths.listings).toBe(outside);
      const data = join(t.dir, 'data');
      const global = ['--config', config, '--data', data, '--now', NOW];

      // The commands run in this process (runCliInProcess): `atlas cycle` and `atlas ingest listings`
      // have their own spawned-process tests; the subject here is which folder they read.
      const cycle = await runCliInProcess([...global, 'cycle', '--skip-registries']);
      expect(cycle.code, cycle.stderr).toBe(0);
      // Only the configured folder's listing: the checkout's shipped listings were not read.
      expect(await services(data)).toEqual([{ id: 'svc_outside', active: true }]);

      const viaDir = await runCliInProcess([...global, 'ingest', 'listings', '--dir', other]);
      expect(viaDir.code, viaDir.stderr).toBe(0);
      expect(await services(data)).toEqual([
        { id: 'svc_other', active: true },
        { id: 'svc_outside', active: false },
      ]);

      const viaConfig = await runCliInProcess([...global, 'ingest', 'listings']);
      expect(viaConfig.code, viaConfig.stderr).toBe(0);
      expect(await services(data)).toEqual([
        { id: 'svc_other', active: false },
        { id: 'svc_outside', active: true },
      ]);
    } finally {
      t.cleanup();
    }
  }, 60_000);
});
