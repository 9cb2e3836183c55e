import { OPERATION_KINDS, type OperationKind } from '../../site/contract/common.ts';
import type { z } from 'zod';
import { slotStart } from '../core/slots.ts';
import type { Store } from '../store/store.ts';
import { PassRuleSchema } from './reasons.ts';
import { shardOf, type Shard } from './shard.ts';

const isOperationKind = (k: string): k is OperationKind => (OPERATION_KINDS as readonly string[]).includes(k);

/**
 * What is due (docs/CONTRACTS.md "Due rule"): every enabled operation of a tracked service
 * — reviewed services only while their listing is active, discovered ones whether listed or not (the
 * schedule rule moves unlisted ones to monthly) — whose current slot
 * `slotStart(now, interval_hours)` has no check yet, once its offset in that slot has passed
 * (`spreadMinutes`, the config's probe.spreadMinutes: macro atlas_due_offset_ms, pipeline/store/rules.sql;
 * 0 = due at the slot start). `all` drops both conditions (the writer still never stores a second row
 * for a slot). The slot arithmetic in SQL is the same epoch-aligned floor as pipeline/core/slots.ts
 * (a test holds them equal).
 */
export interface DueOperation {
  serviceId: string;
  operation: string;
  kind: OperationKind;
  url: string;
  method: string;
  expectedStatuses: number[];
  passRule: z.infer<typeof PassRuleSchema>;
  intervalHours: number;
  protocol: string | null;
  slot: Date;
}

export type OnlyKind = 'calls' | 'documentation' | 'all';

const RULES = new Set<string>(PassRuleSchema.options);
const COLUMNS = 'service_id, operation, kind, url, method, expected_statuses, pass_rule, interval_hours, protocol, slot_ms';

/** The earliest current slot of any operation (the longest interval's): no older check matters. */
async function oldestCurrentSlot(store: Store, now: Date): Promise<Date> {
  const r = await store.all<{ h: number | null }>('SELECT max(interval_hours)::INTEGER AS h FROM operations WHERE interval_hours > 0');
  return slotStart(now, r[0]?.h ?? 1);
}

/**
 * Streams the result in DuckDB chunks into compact objects (no per-row zod, no row-object JSON for the
 * whole set): a 100k sweep must fit the probe's memory budget. Rows are checked field by field.
 * The values that repeat across rows (operation id, kind, method, pass rule, protocol, expected
 * statuses) are shared, not one copy per row: DuckDB hands over a fresh string for every cell, and
 * those copies were a large share of the prober's live heap. The result has one row
 * per operation (ordered by service and operation; a repeated key is dropped).
 */
export async function selectDue(
  store: Store,
  now: Date,
  opts: { all?: boolean; only?: OnlyKind; shard?: Shard; spreadMinutes?: number } = {},
): Promise<DueOperation[]> {
  const only = opts.only ?? 'all';
  const kindFilter = only === 'calls' ? "AND o.kind = 'call'" : only === 'documentation' ? "AND o.kind = 'documentation'" : '';
  const lowerBound = (await oldestCurrentSlot(store, now)).toISOString();
  const slots = new Map<number, Date>();
  const out: DueOperation[] = [];
  const shared = new Map<string, string>();
  const one = (v: string): string => {
    const hit = shared.get(v);
    if (hit !== undefined) return hit;
    shared.set(v, v);
    return v;
  };
  const statusLists = new Map<string, number[]>();
  const statuses = (v: number[] | null): number[] => {
    const k = v ? v.join(',') : '';
    let hit = statusLists.get(k);
    if (!hit) {
      hit = v ?? [];
      statusLists.set(k, hit);
    }
    return hit;
  };
  let lastService = '';
  let lastOperation = '';
  await store.stream(
    `WITH ops AS (
       SELECT o.service_id, o.id AS operation, o.kind, o.url, o.method, o.expected_statuses, o.pass_rule, o.interval_hours,
              s.protocol,
              (epoch_ms($1::TIMESTAMP) // (o.interval_hours::BIGINT * 3600000)) * (o.interval_hours::BIGINT * 3600000) AS slot_ms,
              atlas_due_offset_ms(o.service_id, o.id, o.interval_hours, $4::INTEGER) AS offset_ms
       FROM operations o JOIN services s ON s.id = o.service_id
       WHERE o.enabled AND o.interval_hours > 0 AND (s.tier = 'discovered' OR s.active) ${kindFilter}
     )
     SELECT ${COLUMNS} FROM ops
     WHERE $2 OR (epoch_ms($1::TIMESTAMP) >= slot_ms + offset_ms AND NOT EXISTS (
       SELECT 1 FROM checks c
       WHERE c.slot >= $3::TIMESTAMP -- constant lower bound: zone maps skip older row groups
         AND c.service_id = ops.service_id AND c.operation = ops.operation AND c.slot = make_timestamp(ops.slot_ms * 1000)))
     ORDER BY service_id, operation`,
    [now.toISOString(), !!opts.all, lowerBound, opts.spreadMinutes ?? 0],
    (rows) => {
      for (const r of rows) {
        const [serviceId, operation, kind, url, method, expected, rule, hours, protocol, slotMs] = r as [
          string,
          string,
          string,
          string,
          string,
          number[] | null,
          string,
          number,
          string | null,
          string | number,
        ];
        if (opts.shard && shardOf(serviceId, opts.shard.count) !== opts.shard.index) continue;
        if (serviceId === lastService && operation === lastOperation) continue; // never the same operation twice in one run
        lastService = serviceId;
        lastOperation = operation;
        if (!isOperationKind(kind)) throw new Error(`operation ${serviceId}/${operation}: unknown kind ${kind}`);
        if (!RULES.has(rule)) throw new Error(`operation ${serviceId}/${operation}: unknown pass rule ${rule}`);
        let slot = slots.get(hours);
        if (!slot) {
          slot = slotStart(now, hours);
          if (slot.getTime() !== Number(slotMs)) throw new Error(`slot mismatch for ${serviceId}/${operation}`);
          slots.set(hours, slot);
        }
        out.push({
          serviceId,
          operation: one(operation),
          kind: one(kind) as OperationKind,
          url,
          method: one(method.toUpperCase()),
          expectedStatuses: statuses(expected),
          passRule: one(rule) as DueOperation['passRule'],
          intervalHours: hours,
          protocol: protocol === null ? null : one(protocol),
          slot,
        });
      }
    },
  );
  return out;
}
