import { describe, expect, it } from 'vitest';
import { defaultConfig, parseConfig } from '../../../pipeline/core/config.ts';
import { HOUR_MS } from '../../../pipeline/core/clock.ts';
import { SPREAD_STEPS_MINUTES, slotStart } from '../../../pipeline/core/slots.ts';
import { dueAt, dueOffsetMs, operationHash } from '../../helpers/due-offset.ts';
import { runProbe, selectDue } from '../../../pipeline/probe/index.ts';
import { makeContext, testClock } from '../../helpers/context.ts';
import { startBehaviourServer } from './behaviour-server.ts';
import { seedServices } from './seed.ts';
import { addDiscovered, at, insertCheckSeries } from '../compute/fixtures.ts';
import { evidenceAt, withDb } from '../compute/helpers.ts';

/**
 * When a check is due inside its slot (SQL macro atlas_due_offset_ms; reference test/helpers/due-offset.ts):
 * a fixed per-operation offset quantized to the spread step, while slots, expected and missed checks
 * stay as the evidence rules count them.
 */
const MIN = 60_000;

describe('due offset (pure)', () => {
  it.each([
    // id, operation, hours, step (min), h mod positions → offset
    ['svc_a', 'primary', 1, 5, 1755760034 % 12],
    ['svc_a', 'primary', 24, 5, 1755760034 % 288],
    ['svc_a', 'primary', 168, 5, 1755760034 % 2016],
    ['svc_a', 'primary', 720, 5, 1755760034 % 8640],
    ['svc_a', 'primary', 24, 60, 1755760034 % 24],
    ['svc_a', 'primary', 1, 60, 0],
  ])('%s/%s every %i h, step %i min: position %i', (id, op, hours, step, position) => {
    expect(operationHash(id, op)).toBe(1755760034); // first 32 bits of md5('svc_a/primary')
    expect(dueOffsetMs(id, op, hours, step)).toBe(position * step * MIN);
  });

  it('no spread (step 0): due at the slot start, whatever the operation', () => {
    for (const h of [1, 24, 168, 720]) expect(dueOffsetMs('cand_x', 'primary', h, 0)).toBe(0);
  });

  it('a step that does not divide an hour is refused', () => {
    expect(() => dueOffsetMs('svc_a', 'primary', 24, 7)).toThrow(/does not divide/);
    for (const m of [7, -5, 120]) expect(() => parseConfig({ probe: { spreadMinutes: m } })).toThrow(/spreadMinutes/);
    expect(parseConfig({ probe: { spreadMinutes: 5 } }).probe.spreadMinutes).toBe(5);
    expect(defaultConfig().probe.spreadMinutes).toBe(0);
  });

  it('offsets stay inside the slot, on the step, and nest across intervals (the daily time is one of the hourly times)', () => {
    for (let i = 0; i < 500; i++) {
      const id = `cand_${i}`;
      const hourly = dueOffsetMs(id, 'primary', 1, 5);
      const daily = dueOffsetMs(id, 'primary', 24, 5);
      const weekly = dueOffsetMs(id, 'primary', 168, 5);
      for (const [off, h] of [
        [hourly, 1],
        [daily, 24],
        [weekly, 168],
      ] as const) {
        expect(off % (5 * MIN)).toBe(0);
        expect(off).toBeGreaterThanOrEqual(0);
        expect(off).toBeLessThan(h * HOUR_MS);
      }
      expect(daily % HOUR_MS).toBe(hourly);
      expect(weekly % (24 * HOUR_MS)).toBe(daily);
    }
  });

  it('spreads 20,000 daily operations over the 288 five-minute positions of the day', () => {
    const perPosition = new Array<number>(288).fill(0);
    for (let i = 0; i < 20_000; i++) perPosition[dueOffsetMs(`cand_c${i}`, 'primary', 24, 5) / (5 * MIN)]!++;
    const mean = 20_000 / 288;
    expect(Math.max(...perPosition)).toBeLessThan(mean * 1.6);
    expect(Math.min(...perPosition)).toBeGreaterThan(mean * 0.4);
  });

  it('dueAt: slot start + offset, in the slot that contains the instant', () => {
    const t = new Date('2026-11-26T13:47:10Z');
    expect(dueAt(t, 24, 95 * MIN).toISOString()).toBe('2026-11-26T01:35:00.000Z');
    expect(dueAt(t, 1, 35 * MIN).toISOString()).toBe('2026-11-26T13:35:00.000Z');
    expect(slotStart(t, 1).toISOString()).toBe('2026-11-26T13:00:00.000Z');
  });
});

describe('due offset: the SQL macro equals the TypeScript rule', () => {
  it('for every interval and step, over many operation ids', async () => {
    await withDb(async (store) => {
      const ids: Array<readonly [string, string]> = Array.from(
        { length: 300 },
        (_, i) => [`cand_${i}`, i % 7 === 0 ? 'docs' : 'primary'] as const,
      );
      ids.push(['svc_ünïcode', 'primary']);
      const values = ids.map(([id, op]) => `('${id}', '${op}')`).join(', ');
      for (const step of SPREAD_STEPS_MINUTES) {
        for (const hours of [1, 24, 168, 720]) {
          const rows = await store.all<{ s: string; o: string; off: string | number }>(
            `SELECT s, o, atlas_due_offset_ms(s, o, $1::INTEGER, $2::INTEGER) AS off FROM (VALUES ${values}) v(s, o)`,
            [hours, step],
          );
          expect(rows).toHaveLength(ids.length);
          for (const r of rows)
            expect([r.s, r.o, hours, step, Number(r.off)]).toEqual([r.s, r.o, hours, step, dueOffsetMs(r.s, r.o, hours, step)]);
        }
      }
    });
  }, 60_000);
});

/** An id whose offset for `hours` at a 5-minute step lies in the middle half of the slot. */
function idWithMidSlotOffset(prefix: string, hours: number): { id: string; offsetMs: number } {
  for (let i = 0; ; i++) {
    const id = `${prefix}${i}`;
    const off = dueOffsetMs(id, 'primary', hours, 5);
    if (off > (hours * HOUR_MS) / 4 && off < (3 * hours * HOUR_MS) / 4) return { id, offsetMs: off };
  }
}

describe('a due-later check is never missed before it is due', () => {
  it.each([1, 24, 168])(
    'every %i h: missed_30d stays 0 through a slot whose check runs at its offset; a slot that ended without one is missed',
    async (hours) => {
      await withDb(async (store) => {
        const { id, offsetMs } = idWithMidSlotOffset('cand_late', hours);
        const offMin = offsetMs / MIN;
        const since = '2026-09-03T00:00:00.000Z'; // a Thursday: a weekly slot start (epoch alignment)
        const S = '2026-11-26T00:00:00.000Z'; // a Thursday again: the slot start of every interval
        await addDiscovered(store, { id, monitoring_since: since }, { interval_hours: hours });
        // every slot before S checked at its offset (checked_at = slot + offset, slot = slot start)
        await insertCheckSeries(store, { serviceId: id, from: since, to: S, everyHours: hours, offsetMinutes: offMin });

        // through slot [S, S + interval): before the offset nothing has run and nothing is missed
        const step = hours === 168 ? 360 : hours === 24 ? 30 : 5; // minutes between evaluations
        const due = at(S, 0, offsetMs / HOUR_MS);
        for (let t = new Date(S).getTime(); t < new Date(due).getTime(); t += step * MIN) {
          const e = await evidenceAt(store, new Date(t).toISOString(), id);
          expect([new Date(t).toISOString(), e.missed_30d, e.freshness]).toEqual([new Date(t).toISOString(), 0, 'fresh']);
        }
        // the check runs when due: still nothing missed, through the end of the slot until the next one is due
        await insertCheckSeries(store, { serviceId: id, from: S, to: at(S, 0, hours), everyHours: hours, offsetMinutes: offMin });
        for (let t = new Date(due).getTime(); t < new Date(at(S, 0, hours)).getTime() + offsetMs; t += step * MIN) {
          expect((await evidenceAt(store, new Date(t).toISOString(), id)).missed_30d).toBe(0);
        }
        // the next slot [S + interval, S + 2 intervals) ends without its check: missed once it has ended
        // (and, as documented, from the moment it was due and had not run), never before it was due
        const next = at(S, 0, hours);
        expect((await evidenceAt(store, at(next, 0, offsetMs / HOUR_MS - 1 / 60), id)).missed_30d).toBe(0);
        expect((await evidenceAt(store, at(next, 0, hours + offsetMs / HOUR_MS - 1 / 60), id)).missed_30d).toBe(1);
      });
    },
    60_000,
  );
});

describe('probe with spread: each operation is probed once per slot, at slot start + its offset', () => {
  it('26 simulated hours of five-minute probe runs against a loopback server', async () => {
    const srv = await startBehaviourServer();
    try {
      await withDb(async (store, dir) => {
        const S = '2026-11-26T00:00:00.000Z';
        const hourly = idWithMidSlotOffset('svc_h', 1);
        const daily = idWithMidSlotOffset('svc_d', 24);
        await seedServices(
          store,
          [
            { id: hourly.id, ops: [{ id: 'primary', url: srv.url('x402-v2'), rule: 'reviewed/1' }] },
            { id: daily.id, ops: [{ id: 'primary', url: srv.url('x402-v2'), rule: 'reviewed/1', intervalHours: 24 }] },
          ],
          S,
        );
        const cfg = defaultConfig();
        cfg.probe.resolve = { '*.t.test': '127.0.0.1' };
        cfg.probe.allowPrivate = true;
        cfg.probe.spreadMinutes = 5;
        const clock = testClock(S);
        const ctx = makeContext(dir, { clock, config: cfg });
        const end = new Date(at(S, 0, 26)).getTime();
        let probed = 0;
        let runs = 0;
        for (let t = new Date(S).getTime(); t < end; t += 5 * MIN) {
          // what is due is exactly the operations whose offset in their current slot has passed
          const expected = [hourly, daily].filter((o) => t % ((o === hourly ? 1 : 24) * HOUR_MS) === o.offsetMs).length;
          expect((await selectDue(store, new Date(t), { spreadMinutes: 5 })).length, new Date(t).toISOString()).toBe(expected);
          // A real probe run where something is due and once an hour where nothing is (the five-minute
          // runs in between are the same empty run; the due query above covers every one of them).
          if (expected === 0 && t % HOUR_MS !== 0) continue;
          clock.set(new Date(t));
          const r = await runProbe(ctx, store, { timeoutMs: 3000 });
          runs += 1;
          probed += r.counts.stored;
          expect(r.counts.due).toBe(expected);
        }
        expect(runs).toBeGreaterThanOrEqual(26 + 26);
        expect(probed).toBe(26 + 1); // the daily operation's second slot falls due after 30 hours
        const rows = await store.all<{ service_id: string; slot: string; off: number }>(
          `SELECT service_id, strftime(slot, '%Y-%m-%dT%H:%M:%S.%gZ') AS slot, (epoch_ms(checked_at) - epoch_ms(slot))::BIGINT AS off
           FROM checks ORDER BY service_id, slot`,
        );
        for (const r of rows) expect(Number(r.off)).toBe(r.service_id === hourly.id ? hourly.offsetMs : daily.offsetMs);
        expect(rows.filter((r) => r.service_id === daily.id).map((r) => r.slot)).toEqual([S]);
        // --all ignores the offset (one row per slot still)
        expect((await selectDue(store, new Date(end), { all: true, spreadMinutes: 5 })).length).toBe(2);
        // and nothing is missed at any hour of the simulated day
        for (let h = 1; h <= 26; h++) {
          for (const o of [hourly, daily]) expect((await evidenceAt(store, at(S, 0, h), o.id)).missed_30d).toBe(0);
        }
      });
    } finally {
      await srv.close();
    }
  }, 60_000); // about 53 probe runs and 312 due queries over a real database
});
