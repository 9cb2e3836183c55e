import { describe, expect, it } from 'vitest';
import type { FingerprintRow } from '../../../pipeline/publish/fingerprint.ts';
import { planSharing } from '../../../pipeline/publish/plan-sharing.ts';

/** A fingerprint row: `spec` is `<bucket>:<id>:<fp>`, ords given in order from 1. */
function rows(...specs: string[]): FingerprintRow[] {
  return specs.map((spec, i) => {
    const [bucket, id, fp] = spec.split(':') as [string, string, string];
    return { ord: i + 1, bucket: Number(bucket), id, in_directory: true, fp, fp_next: fp, checks_30d: 1, monitoring_since: null };
  });
}

const prev = (entries: Record<string, string>) => new Map(Object.entries(entries));

interface Case {
  name: string;
  rows: FingerprintRow[];
  previous: Map<string, string> | null;
  counts: number[] | null;
  /** bucket → action */
  buckets: Record<number, string>;
  shared: string[];
  render: number[];
}

const CASES: Case[] = [
  {
    name: 'no previous generation: every service and every bucket rendered',
    rows: rows('0:a:1', '0:b:1', '1:c:1'),
    previous: null,
    counts: null,
    buckets: { 0: 'render', 1: 'render' },
    shared: [],
    render: [1, 2, 3],
  },
  {
    name: 'nothing changed, same counts: every bucket linked',
    rows: rows('0:a:1', '0:b:1', '1:c:1'),
    previous: prev({ a: '1', b: '1', c: '1' }),
    counts: [2, 1],
    buckets: { 0: 'link', 1: 'link' },
    shared: ['a', 'b', 'c'],
    render: [],
  },
  {
    name: 'one service changed: its bucket rendered, the other linked',
    rows: rows('0:a:1', '0:b:2', '1:c:1'),
    previous: prev({ a: '1', b: '1', c: '1' }),
    counts: [2, 1],
    buckets: { 0: 'render', 1: 'link' },
    shared: ['a', 'c'],
    render: [2],
  },
  {
    name: 'a service left a bucket: the rest of it copied, not linked',
    rows: rows('0:a:1', '1:c:1'),
    previous: prev({ a: '1', b: '1', c: '1' }),
    counts: [2, 1],
    buckets: { 0: 'copy', 1: 'link' },
    shared: ['a', 'c'],
    render: [],
  },
  {
    name: 'a new service: rendered, its bucket rendered',
    rows: rows('0:a:1', '1:c:1', '1:d:1'),
    previous: prev({ a: '1', c: '1' }),
    counts: [1, 1],
    buckets: { 0: 'link', 1: 'render' },
    shared: ['a', 'c'],
    render: [3],
  },
  {
    name: 'the previous counts are unknown (other bucket bits): unchanged buckets copied',
    rows: rows('0:a:1', '1:c:1'),
    previous: prev({ a: '1', c: '1' }),
    counts: null,
    buckets: { 0: 'copy', 1: 'copy' },
    shared: ['a', 'c'],
    render: [],
  },
  {
    name: 'no services: no bucket',
    rows: [],
    previous: prev({ a: '1' }),
    counts: [1],
    buckets: {},
    shared: [],
    render: [],
  },
];

describe('planSharing (what is linked, copied or rendered)', () => {
  it.each(CASES)('$name', (c) => {
    const plan = planSharing(c.rows, c.previous, c.counts);
    expect(Object.fromEntries(plan.buckets.map((b) => [b.bucket, b.action]))).toEqual(c.buckets);
    expect(plan.shared.map((r) => r.id)).toEqual(c.shared);
    expect(plan.render).toEqual(c.render);
    // Every service is in exactly one bucket, in ordinal order, marked as the plan decided.
    const planned = plan.buckets.flatMap((b) => b.services);
    expect(planned.map((s) => s.row.ord)).toEqual(c.rows.map((r) => r.ord));
    expect(planned.filter((s) => s.shared).map((s) => s.row.id)).toEqual(c.shared);
  });
});
