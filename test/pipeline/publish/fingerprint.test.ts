import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FINGERPRINT_ROWS_SQL, type FingerprintRow, fingerprintRows } from '../../../pipeline/publish/fingerprint.ts';
import { openTestStore, tempDir } from '../../helpers/context.ts';

/** The two temp tables FINGERPRINT_ROWS_SQL reads, filled with `rows` (as the fingerprint step leaves them). */
async function readBack(rows: readonly FingerprintRow[]): Promise<FingerprintRow[]> {
  const { dir, cleanup } = tempDir('atlas-fp-rows-');
  const store = await openTestStore(dir);
  try {
    await store.run(
      'CREATE TEMP TABLE pub_fp (ord INTEGER, bucket INTEGER, id VARCHAR, in_directory BOOLEAN, fp VARCHAR, fp_next VARCHAR)',
    );
    await store.run('CREATE TEMP TABLE pub_keys (ord INTEGER, checks_30d BIGINT, monitoring_since VARCHAR)');
    for (const r of rows) {
      await store.run('INSERT INTO pub_fp VALUES ($1, $2, $3, $4, $5, $6)', [r.ord, r.bucket, r.id, r.in_directory, r.fp, r.fp_next]);
      await store.run('INSERT INTO pub_keys VALUES ($1, $2, $3)', [r.ord, r.checks_30d, r.monitoring_since]);
    }
    return fingerprintRows((await store.all<{ t: string | null }>(FINGERPRINT_ROWS_SQL))[0]?.t ?? null);
  } finally {
    store.close();
    cleanup();
  }
}

const row = (ord: number, id: string, over: Partial<FingerprintRow> = {}): FingerprintRow => ({
  ord,
  bucket: ord % 3,
  id,
  in_directory: ord % 2 === 0,
  fp: `${ord}`.padStart(32, 'a'),
  fp_next: `${ord}`.padStart(32, 'b'),
  checks_30d: ord * 7,
  monitoring_since: '2026-11-01T00:00:00.000Z',
  ...over,
});

describe('fingerprintRows (every service read back as one text)', () => {
  it('reads back each row as stored, in ordinal order, whatever the id holds', async () => {
    const rows = [
      row(2, 'svc_plain'),
      row(1, 'bad id with spaces', { monitoring_since: null }),
      row(3, 'line\nbreak "quoted" back\\slash é 𝄞 \u0001'),
      row(4, ''),
    ];
    expect(await readBack(rows)).toEqual([...rows].sort((a, b) => a.ord - b.ord));
  });

  it('reads no service as none', async () => {
    expect(await readBack([])).toEqual([]);
    expect(fingerprintRows(null)).toEqual([]);
  });

  it('refuses a line of another shape rather than misreading it', () => {
    expect(() => fingerprintRows('1 0 true aa bb 3 -')).toThrow(/another shape/);
    expect(() => fingerprintRows('1 0 yes aa bb 3 - "svc_a"')).toThrow(/another shape/);
    expect(() => fingerprintRows('1 0 true aa bb 3 - svc_a')).toThrow(/another shape/);
  });

  it('any id survives the text (property)', async () => {
    const ids = fc.sample(fc.string({ unit: 'binary', maxLength: 12 }), { numRuns: 40, seed: 7 });
    const rows = ids.map((id, i) => row(i + 1, id));
    expect(await readBack(rows)).toEqual(rows);
  }, 60_000);
});
