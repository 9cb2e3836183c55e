import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore, refreshSnapshot } from '../../../pipeline/store/index.ts';
import { openTestStore, tempDir } from '../../helpers/context.ts';

describe('researchers snapshot after a killed copy', () => {
  it('removes the temporary copies a killed process left, and writes a readable snapshot', async () => {
    const t = tempDir();
    try {
      const target = join(t.dir, 'snapshots', 'atlas-snapshot.duckdb');
      mkdirSync(join(t.dir, 'snapshots'));
      // What a process killed mid-copy leaves: its pid-named copy and WAL (a full database each).
      writeFileSync(`${target}.tmp-4242`, 'half a database');
      writeFileSync(`${target}.tmp-4242.wal`, 'wal');
      writeFileSync(join(t.dir, 'snapshots', 'notes.txt'), 'not ours'); // anything else stays
      const store = await openTestStore(t.dir);
      try {
        await store.run(`INSERT INTO runs (id, kind, started_at, status) VALUES ('r', 'probe', now(), 'ok')`);
        await refreshSnapshot(store, target);
      } finally {
        store.close();
      }
      expect(readdirSync(join(t.dir, 'snapshots')).sort()).toEqual(['atlas-snapshot.duckdb', 'notes.txt']);
      expect(existsSync(`${target}.tmp-4242`)).toBe(false);
      const snap = await openStore(target, { readOnly: true });
      try {
        expect(await snap.all(`SELECT id FROM runs`)).toEqual([{ id: 'r' }]);
      } finally {
        snap.close();
      }
    } finally {
      t.cleanup();
    }
  });
});
