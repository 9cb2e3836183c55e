import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeAll } from '../../../pipeline/compute/index.ts';
import type { Context } from '../../../pipeline/core/context.ts';
import { verifyGeneration } from '../../../pipeline/verify/index.ts';
import { RunLog, ServiceDetailFile, type PaymentTerms } from '../../../site/contract/index.ts';
import { fmtTime } from '../../../site/pages/format.ts';
import { publish } from '../../../pipeline/publish/index.ts';
import { dailyWorld, withServedTree } from './daily-world.ts';
import { parseWith } from './read-tree.ts';

const T0 = '2026-11-25T12:00:00.000Z';
const HOUR = 3_600_000;
const DAY = 86_400_000;
/** The one service whose terms are tracked under 90 days (its older observations are removed). */
const LIMITED = 'cand_x0000004';

/**
 * The daily-checked services with 121 days of history, so the x402 ones have had valid payment
 * requests observed for about 120 days: within an hour without new checks nothing of theirs moves but
 * the 90-day window's start of those tracked longer than 90 days.
 */
async function oldTermsWorld() {
  const world = await dailyWorld(T0, 121, 'atlas-terms-window-');
  await world.store.run('DELETE FROM payment_terms WHERE service_id = $1 AND observed_at < $2::TIMESTAMP', [
    LIMITED,
    new Date(Date.parse(T0) - 60 * DAY).toISOString(),
  ]);
  return world;
}

interface Answered {
  detail: PaymentTerms | null;
  listed: PaymentTerms | null | undefined;
  page: string;
}

/** The answers of the real app over the published tree: single-service object, index search, server-rendered page. */
async function answers(ctx: Context, ids: string[]): Promise<Map<string, Answered>> {
  return withServedTree(ctx, async (get) => {
    const list = await get('/api/v1/services?scope=index&limit=100');
    expect(list.status).toBe(200);
    const items = ((await list.json()) as { items: { id: string; payment_terms: PaymentTerms | null }[] }).items;
    const out = new Map<string, Answered>();
    for (const id of ids) {
      const res = await get(`/api/v1/services/${id}`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { payment_terms: PaymentTerms | null };
      const page = await (await get(`/services/${id}`)).text();
      out.set(id, { detail: body.payment_terms, listed: items.find((s) => s.id === id)?.payment_terms, page });
    }
    return out;
  });
}

const ino = (p: string) => statSync(p).ino;

describe('payment_terms.window_start across computes', () => {
  it('a compute an hour later re-renders no service; the server answers data_as_of minus 90 days', async () => {
    const { cleanup, store, clock, ctx } = await oldTermsWorld();
    try {
      const firstSeen = async (id: string) =>
        (
          await store.all<{ t: string }>(
            "SELECT atlas_iso(min(observed_at)) AS t FROM payment_terms WHERE service_id = $1 AND operation = 'primary'",
            [id],
          )
        )[0]!.t;
      const x402 = (await store.all<{ id: string }>("SELECT id FROM services WHERE protocol = 'x402' ORDER BY id")).map((r) => r.id);
      expect(x402).toContain(LIMITED);
      const tracked = x402.filter((id) => id !== LIMITED);
      expect(tracked.length).toBeGreaterThan(5);
      for (const id of tracked) expect(Date.parse(T0) - Date.parse(await firstSeen(id))).toBeGreaterThan(119 * DAY);
      const limitedSince = await firstSeen(LIMITED);

      await computeAll(ctx, store);
      const first = await publish(ctx, store);
      expect(first.incremental.rendered).toBe(20);

      clock.advance(HOUR);
      await computeAll(ctx, store);
      const gen2 = await publish(ctx, store);
      expect(gen2.incremental).toMatchObject({ previous: first.generation, rendered: 0 });
      const dataAsOf = parseWith(RunLog, join(gen2.dir, 'run-log.json')).data_as_of;
      expect(dataAsOf).toBe(clock().toISOString());
      const windowStart = new Date(Date.parse(dataAsOf!) - 90 * DAY).toISOString();

      // Every file is the previous generation's: the start of its own render's window (90 days before
      // that render's data_as_of), or the first observation while limited.
      const firstAsOf = parseWith(RunLog, join(first.dir, 'run-log.json')).data_as_of;
      const renderWindowStart = new Date(Date.parse(firstAsOf!) - 90 * DAY).toISOString();
      expect(renderWindowStart).not.toBe(windowStart);
      for (const id of x402) {
        const path = join(gen2.dir, `api/v1/services/${id}.json`);
        expect(ino(path)).toBe(ino(join(first.dir, `api/v1/services/${id}.json`)));
        expect(parseWith(ServiceDetailFile, path).payment_terms).toMatchObject(
          id === LIMITED ? { limited: true, window_start: limitedSince } : { limited: false, window_start: renderWindowStart },
        );
        const page = readFileSync(join(gen2.dir, `services/${id}.html`), 'utf8');
        if (id === LIMITED) expect(page).toContain(`tracked under 90 days, since ${fmtTime(limitedSince)}`);
        else expect(page).not.toContain('tracked under 90 days');
      }

      // Every answer carries the whole value, equal to what compute stored at data_as_of.
      const stored = new Map(
        (await store.all<{ id: string; w: string }>('SELECT service_id AS id, atlas_iso(window_start) AS w FROM terms_summary')).map(
          (r) => [r.id, r.w],
        ),
      );
      const answered = await answers(ctx, x402);
      for (const id of x402) {
        const a = answered.get(id)!;
        const want = id === LIMITED ? limitedSince : windowStart;
        expect(stored.get(id)).toBe(want);
        expect(a.detail).toMatchObject({ window_start: want, limited: id === LIMITED });
        expect(a.listed).toEqual(a.detail);
        if (id === LIMITED) expect(a.page).toContain(`tracked under 90 days, since ${fmtTime(limitedSince)}`);
        else expect(a.page).not.toContain('tracked under 90 days');
      }
      expect((await verifyGeneration(store, gen2.dir)).mismatches).toEqual([]);
    } finally {
      store.close();
      cleanup();
    }
  }, 60_000);
});
