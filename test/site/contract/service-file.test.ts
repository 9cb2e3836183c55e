import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  RENDER_INSTANT_MEMBERS,
  ServiceDetail,
  ServiceDetailFile,
  type ServiceDetailShape,
  serviceFileAt,
  withMonitoringDays,
  withTermsWindowStart,
} from '../../../site/contract/index.ts';
import { discoveredDetail } from '../pages/fixtures.ts';

/** A shaped service as publish has it before its render: no instants, no days, the window only while limited. */
function shape(limited: boolean): ServiceDetailShape {
  const { generated_at: _g, data_as_of: _d, evidence, payment_terms, ...rest } = discoveredDetail();
  const { monitoring_days: _m, ...ev } = evidence;
  return {
    ...rest,
    directory: { ...rest.directory, scope: 'full', evaluated_at: null },
    evidence: { ...ev, monitoring_since: '2026-08-01T00:00:00.000Z', limited_evidence: false },
    payment_terms: payment_terms && { ...payment_terms, limited, window_start: limited ? '2026-09-30T00:00:00.000Z' : null },
  };
}

const AT = { generatedAt: '2026-11-25T12:05:00.000Z', dataAsOf: '2026-11-25T12:00:00.000Z' };

describe('serviceFileAt (site/contract/service-file.ts)', () => {
  it('puts in every render-instant member as of the render: the instants, the days and the window counted to data_as_of', () => {
    const file = ServiceDetailFile.parse(serviceFileAt(shape(false), AT));
    expect(file.generated_at).toBe(AT.generatedAt);
    expect(file.data_as_of).toBe(AT.dataAsOf);
    // 2026-08-01 to 2026-11-25 12:00: 116.5 days.
    expect(file.evidence.monitoring_days).toBe(116.5);
    expect(file.payment_terms?.window_start).toBe('2026-08-27T12:00:00.000Z');
    // The contract's member order: the instants after api_status, the days after monitoring_since.
    const keys = Object.keys(file);
    expect(keys.slice(keys.indexOf('api_status'), keys.indexOf('api_status') + 3)).toEqual(['api_status', 'generated_at', 'data_as_of']);
    const ev = Object.keys(file.evidence);
    expect(ev[ev.indexOf('monitoring_since') + 1]).toBe('monitoring_days');
  });

  it('keeps the first observation while limited, and counts to generated_at when no compute has run', () => {
    const limited = serviceFileAt(shape(true), AT);
    expect(limited.payment_terms?.window_start).toBe('2026-09-30T00:00:00.000Z');
    const never = serviceFileAt(shape(false), { generatedAt: AT.generatedAt, dataAsOf: null });
    expect(never.data_as_of).toBeNull();
    expect(never.evidence.monitoring_days).toBe(116.503);
    expect(never.payment_terms?.window_start).toBe('2026-08-27T12:05:00.000Z');
  });

  it('gives a file that is a valid single-service object apart from the file-only directory.scope', () => {
    const file = serviceFileAt(shape(false), AT);
    const { scope: _scope, ...directory } = file.directory;
    expect(ServiceDetail.safeParse({ ...file, directory }).success).toBe(true);
    // Without its render instants it is not a published file.
    expect(ServiceDetailFile.safeParse(shape(false)).success).toBe(false);
  });

  it("gives the server's answer when the generation's instant replaces the render's (a shared file, a later generation)", () => {
    const file = serviceFileAt(shape(false), AT);
    const later = Date.parse('2026-11-25T14:00:00.000Z');
    // The server's completion of a file written at the later instant equals its completion of the
    // earlier file: the render's values never win over the generation's.
    const direct = serviceFileAt(shape(false), { generatedAt: '2026-11-25T14:00:00.000Z', dataAsOf: '2026-11-25T14:00:00.000Z' });
    expect(withMonitoringDays(file.evidence, later)).toEqual(direct.evidence);
    expect(withTermsWindowStart(file.payment_terms, later)).toEqual(direct.payment_terms);
  });
});

describe('RENDER_INSTANT_MEMBERS', () => {
  /** The schema at a dotted path of an object schema (through nullable wrappers), undefined when none. */
  function memberSchema(schema: z.ZodType, path: string): z.ZodType | undefined {
    let s: z.ZodType | undefined = schema;
    for (const k of path.split('.')) {
      while (s instanceof z.ZodNullable || s instanceof z.ZodOptional) s = s.unwrap() as z.ZodType;
      if (!(s instanceof z.ZodObject)) return undefined;
      s = (s.shape as Record<string, z.ZodType>)[k];
    }
    return s;
  }

  it('names members of the published single-service file, each required there', () => {
    for (const path of RENDER_INSTANT_MEMBERS) {
      const s = memberSchema(ServiceDetailFile, path);
      expect(s, path).toBeDefined();
      expect(s instanceof z.ZodOptional, path).toBe(false);
    }
    expect(memberSchema(ServiceDetailFile, 'evidence.no_such_member')).toBeUndefined();
  });
});
