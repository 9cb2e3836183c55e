import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeAll } from '../../../pipeline/compute/index.ts';
import type { Context } from '../../../pipeline/core/context.ts';
import type { Store } from '../../../pipeline/store/store.ts';
import { verifyGeneration } from '../../../pipeline/verify/index.ts';
import { directoryEvaluatedAt, Manifest, ServiceDetailFile } from '../../../site/contract/index.ts';
import { fmtTime } from '../../../site/pages/format.ts';
import { publish } from '../../../pipeline/publish/index.ts';
import { dailyWorld, withServedTree } from '../../pipeline/publish/daily-world.ts';
import { apartFromRenderInstants, parseWith } from '../../pipeline/publish/read-tree.ts';

const T0 = '2026-11-25T12:00:00.000Z';
const HOUR = 3_600_000;

describe('directoryEvaluatedAt (site/contract/directory-evaluated.ts)', () => {
  const FULL = '2026-11-25T13:00:00.000Z';
  it("is the file's own changed-scope instant, else the generation's last full evaluation, null when never evaluated", () => {
    expect(directoryEvaluatedAt({ evaluated_at: '2026-11-25T13:05:00.000Z', scope: 'changed' }, FULL)).toBe('2026-11-25T13:05:00.000Z');
    expect(directoryEvaluatedAt({ evaluated_at: null, scope: 'full' }, FULL)).toBe(FULL);
    expect(directoryEvaluatedAt({ evaluated_at: null, scope: null }, FULL)).toBeNull();
    // The later of the two: an own instant older than the full evaluation cannot be the latest.
    expect(directoryEvaluatedAt({ evaluated_at: '2026-11-25T12:05:00.000Z', scope: 'changed' }, FULL)).toBe(FULL);
    expect(directoryEvaluatedAt({ evaluated_at: '2026-11-25T12:05:00.000Z', scope: 'changed' }, null)).toBe('2026-11-25T12:05:00.000Z');
  });

  it('keeps the value of a file without scope (an older generation, or an object already answered)', () => {
    expect(directoryEvaluatedAt({ evaluated_at: '2026-11-25T12:00:00.000Z' }, FULL)).toBe('2026-11-25T12:00:00.000Z');
    expect(directoryEvaluatedAt({ evaluated_at: null }, FULL)).toBeNull();
  });
});

/** The answers of the real app (API and server-rendered page) over the published tree, for `ids`. */
async function answers(ctx: Context, ids: string[]): Promise<Map<string, { evaluatedAt: unknown; page: string }>> {
  return withServedTree(ctx, async (get) => {
    const out = new Map<string, { evaluatedAt: unknown; page: string }>();
    for (const id of ids) {
      const res = await get(`/api/v1/services/${id}`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { directory: Record<string, unknown> };
      expect('scope' in body.directory).toBe(false);
      const page = await (await get(`/services/${id}`)).text();
      out.set(id, { evaluatedAt: body.directory.evaluated_at, page });
    }
    return out;
  });
}

/** Each service's evaluation instant as the database holds it (view directory_current). */
async function storedInstants(store: Store): Promise<Map<string, string>> {
  const rows = await store.all<{ id: string; at: string }>('SELECT service_id AS id, atlas_iso(evaluated_at) AS at FROM directory_current');
  return new Map(rows.map((r) => [r.id, r.at]));
}

const ino = (p: string) => statSync(p).ino;

describe('directory.evaluated_at across hourly full evaluations', () => {
  it('a full evaluation that changes nothing re-renders no service; the server answers its instant', async () => {
    const { cleanup, store, clock, ctx } = await dailyWorld(T0, 3, 'atlas-evaluated-at-');
    try {
      // The cycle's own choice of scope: full when none for an hour, changed otherwise.
      await computeAll(ctx, store);
      const first = await publish(ctx, store);
      expect(first.incremental.rendered).toBe(20);
      const fileAt = (dir: string, id: string) => readFileSync(join(dir, `api/v1/services/${id}.json`), 'utf8');
      const firstFiles = new Map(readdirSync(join(first.dir, 'api/v1/services')).map((f) => [f, fileAt(first.dir, f.slice(0, -5))]));

      clock.advance(HOUR);
      const second = await computeAll(ctx, store);
      expect(second.scope).toBe('full');
      const gen2 = await publish(ctx, store);
      expect(gen2.incremental).toMatchObject({ previous: first.generation, rendered: 0 });
      const full2 = new Date(T0).getTime() + HOUR;
      expect(parseWith(Manifest, join(gen2.dir, 'manifest.json')).directory_full_evaluation_at).toBe(new Date(full2).toISOString());
      const ids = readdirSync(join(gen2.dir, 'api/v1/services')).map((f) => f.slice(0, -'.json'.length));
      expect(ids).toHaveLength(20);
      for (const id of ids) {
        expect(ino(join(gen2.dir, `api/v1/services/${id}.json`))).toBe(ino(join(first.dir, `api/v1/services/${id}.json`)));
        const file = parseWith(ServiceDetailFile, join(gen2.dir, `api/v1/services/${id}.json`));
        expect(file.directory).toMatchObject({ scope: 'full', evaluated_at: null });
        // The static page does not carry the moving instant either.
        const page = readFileSync(join(gen2.dir, `services/${id}.html`), 'utf8');
        expect(page).toContain('evaluated at the latest hourly evaluation of every service');
        expect(page).not.toContain(fmtTime(new Date(full2)));
      }
      let answered = await answers(ctx, ids);
      let stored = await storedInstants(store);
      for (const id of ids) {
        expect(answered.get(id)?.evaluatedAt).toBe(new Date(full2).toISOString());
        expect(answered.get(id)?.evaluatedAt).toBe(stored.get(id));
        expect(answered.get(id)?.page).toContain(`evaluated ${fmtTime(new Date(full2))}`);
      }
      expect((await verifyGeneration(store, gen2.dir)).mismatches).toEqual([]);

      // A changed-scope evaluation five minutes later (the service was updated): only that service's
      // file changes, and it names its own instant.
      clock.advance(5 * 60_000);
      const changedAt = clock().toISOString();
      const one = ids[0]!;
      await store.run('UPDATE services SET updated_at = $1::TIMESTAMP WHERE id = $2', [changedAt, one]);
      expect((await computeAll(ctx, store)).scope).toBe('changed');
      const gen3 = await publish(ctx, store);
      expect(gen3.incremental.rendered).toBe(1);
      expect(parseWith(ServiceDetailFile, join(gen3.dir, `api/v1/services/${one}.json`)).directory).toMatchObject({
        scope: 'changed',
        evaluated_at: changedAt,
      });
      expect(readFileSync(join(gen3.dir, `services/${one}.html`), 'utf8')).toContain(`evaluated ${fmtTime(changedAt)}`);
      answered = await answers(ctx, ids);
      stored = await storedInstants(store);
      for (const id of ids) {
        expect(answered.get(id)?.evaluatedAt).toBe(id === one ? changedAt : new Date(full2).toISOString());
        expect(answered.get(id)?.evaluatedAt).toBe(stored.get(id));
      }
      expect((await verifyGeneration(store, gen3.dir)).mismatches).toEqual([]);

      // The next hourly full evaluation confirms it again: its file returns to the full form (one
      // render), every other service is still shared, and every answer moves to the new instant.
      clock.advance(HOUR);
      expect((await computeAll(ctx, store)).scope).toBe('full');
      const gen4 = await publish(ctx, store);
      expect(gen4.incremental.rendered).toBe(1);
      // The same file as the first render apart from the instants of its own render.
      expect(apartFromRenderInstants(fileAt(gen4.dir, one))).toBe(apartFromRenderInstants(firstFiles.get(`${one}.json`)!));
      expect(fileAt(gen4.dir, one)).not.toBe(firstFiles.get(`${one}.json`));
      const full4 = clock().toISOString();
      answered = await answers(ctx, ids);
      stored = await storedInstants(store);
      for (const id of ids) {
        expect(answered.get(id)?.evaluatedAt).toBe(full4);
        expect(answered.get(id)?.evaluatedAt).toBe(stored.get(id));
      }
      expect((await verifyGeneration(store, gen4.dir)).mismatches).toEqual([]);
    } finally {
      store.close();
      cleanup();
    }
  }, 60_000);

  it('a service published before any evaluation answers null, whatever the generation says', async () => {
    const { cleanup, store, clock, ctx } = await dailyWorld(T0, 3, 'atlas-evaluated-at-');
    try {
      await computeAll(ctx, store);
      clock.advance(60_000);
      // Placed after the full evaluation, published before any compute reaches it.
      await store.run(
        `INSERT INTO services SELECT * REPLACE ('cand_new0001' AS id, $1::TIMESTAMP AS created_at, $1::TIMESTAMP AS updated_at)
         FROM services WHERE id = 'cand_x0000001'`,
        [clock().toISOString()],
      );
      await store.run(
        `INSERT INTO operations SELECT * REPLACE ('cand_new0001' AS service_id) FROM operations WHERE service_id = 'cand_x0000001'`,
      );
      const gen = await publish(ctx, store);
      expect(parseWith(ServiceDetailFile, join(gen.dir, 'api/v1/services/cand_new0001.json')).directory).toMatchObject({
        scope: null,
        evaluated_at: null,
      });
      expect(parseWith(Manifest, join(gen.dir, 'manifest.json')).directory_full_evaluation_at).toBe(T0);
      const answered = await answers(ctx, ['cand_new0001', 'cand_x0000001']);
      expect(answered.get('cand_new0001')?.evaluatedAt).toBeNull();
      expect(answered.get('cand_x0000001')?.evaluatedAt).toBe(T0);
    } finally {
      store.close();
      cleanup();
    }
  }, 60_000);
});
