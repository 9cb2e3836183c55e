import { describe, expect, it } from 'vitest';
import type { ServiceSummary } from '../../../site/contract/summary.ts';
import { SLOT, summaryTemplate } from '../../../serve/search/template.ts';
import { buildService, generateSpecs } from '../fixture.ts';

const PUBLISHED = new Date('2026-11-25T12:00:00Z');
const summary = (): ServiceSummary => structuredClone(buildService(generateSpecs(2)[1]!, PUBLISHED).record.summary);

/** The slots of a template as [kind, the published text it covers]. */
function slots(json: string, t: readonly number[]): [number, string][] {
  const bytes = Buffer.from(json);
  const out: [number, string][] = [];
  for (let k = 0; k < t.length; k += 3) out.push([t[k + 2]!, bytes.toString('utf8', t[k]!, t[k + 1]!)]);
  return out;
}

describe('summary templates: the published JSON with its answer-time slots', () => {
  it('the JSON is the published serialization, and the slots cover freshness, the schedule_tier member and the link prefixes', () => {
    const s = summary();
    const { json, template } = summaryTemplate(s);
    expect(json).toBe(JSON.stringify(s));
    expect(template).not.toBeNull();
    const got = slots(json, template!);
    expect(got).toContainEqual([SLOT.FRESHNESS, JSON.stringify(s.evidence.freshness)]);
    expect(got).toContainEqual([SLOT.SCHEDULE_TIER, `,"schedule_tier":${JSON.stringify(s.evidence.check_interval)}`]);
    expect(got.filter(([slot, text]) => slot === SLOT.BASE && text === '')).toHaveLength(2);
    // Ascending, and each base slot sits right before a relative link.
    for (let k = 3; k < template!.length; k += 3) expect(template![k]!).toBeGreaterThanOrEqual(template![k - 2]!);
    for (let k = 0; k < template!.length; k += 3) {
      if (template![k + 2] === SLOT.BASE) expect(Buffer.from(json).toString('utf8', template![k]!, template![k]! + 1)).toBe('/');
    }
  });

  it('slots are UTF-8 byte offsets when the text before them is not ASCII', () => {
    const s = summary();
    s.name = 'ünï 😀 service';
    const { json, template } = summaryTemplate(s);
    expect(json).toBe(JSON.stringify(s));
    expect(slots(json, template!)).toContainEqual([SLOT.FRESHNESS, JSON.stringify(s.evidence.freshness)]);
  });

  it('a summary holding a sentinel text elsewhere gets no template (so it is presented the reference way)', () => {
    const s = summary();
    s.name = '\u0001atlas:freshness\u0001';
    const { json, template } = summaryTemplate(s);
    expect(json).toBe(JSON.stringify(s));
    expect(template).toBeNull();
  });

  it('schedule_tier as the first evidence member takes the comma after it', () => {
    const s = summary();
    const { schedule_tier, ...rest } = s.evidence as ServiceSummary['evidence'] & { schedule_tier: unknown };
    s.evidence = { schedule_tier, ...rest } as ServiceSummary['evidence'];
    const { json, template } = summaryTemplate(s);
    expect(json).toBe(JSON.stringify(s));
    expect(slots(json, template!)).toContainEqual([SLOT.SCHEDULE_TIER, `"schedule_tier":${JSON.stringify(s.evidence.check_interval)},`]);
  });
});
