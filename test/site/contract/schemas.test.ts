import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  COMPONENTS,
  Evidence,
  fieldEntries,
  FIELD_DOCS,
  missingFieldDocs,
  NOTES,
  Notes,
  PaymentTerms,
  RESPONSES,
  ServiceDetail,
  ServiceList,
  ServiceSummary,
} from '../../../site/contract/index.ts';
import { membersOf } from '../../../site/contract/walk.ts';

// Members the API names for ServiceList, ServiceSummary, evidence and payment_terms: the contract must carry every one of them.
// Plus data_as_of, our addition to the list: every response with computed figures says when compute
// last ran; and max_price_usd, our addition to the summary: the most a call can cost under a maximum
// scheme (upto, batch-settlement), kept out of price_usd (docs/CONTRACTS.md "Contract schemas"); and
// declared_terms, our addition (issue 27): declared against observed payment terms (rule declared-terms/1).
const SPEC_SERVICE_LIST = ['api_status', 'generated_at', 'data_as_of', 'notes', 'query', 'total', 'items', 'hint'];
const SPEC_SUMMARY = [
  'id',
  'tier',
  'type',
  'name',
  'name_source',
  'host',
  'url',
  'method',
  'templated_url',
  'operator',
  'tags',
  'category',
  'price_usd',
  'max_price_usd',
  'price_source',
  'provider_endpoints',
  'networks',
  'networks_source',
  'mainnet',
  'evidence',
  'registry_usage',
  'registry_listing',
  'payment_terms',
  'declared_terms',
  'links',
];
const SPEC_EVIDENCE = [
  'operations',
  'check_interval_hours',
  'check_interval',
  'check_interval_rule',
  'schedule_tier',
  'monitoring_since',
  'monitoring_days',
  'limited_evidence',
  'checks_30d',
  'passed_30d',
  'missed_30d',
  'pass_rate',
  'freshness',
  'last_check',
];
const SPEC_TERMS = [
  'current_since',
  'changes_30d',
  'changes_90d',
  'pay_to_changes_90d',
  'last_change_at',
  'last_change_kinds',
  'window_start',
  'limited',
];

const keys = (s: z.ZodObject) => Object.keys(s.shape).sort();

describe('contract schemas', () => {
  it('carry every member the API names for ServiceList, ServiceSummary, evidence and payment_terms — and no other', () => {
    expect(keys(ServiceList)).toEqual([...SPEC_SERVICE_LIST].sort());
    expect(keys(ServiceSummary)).toEqual([...SPEC_SUMMARY].sort());
    expect(keys(Evidence)).toEqual([...SPEC_EVIDENCE].sort());
    expect(keys(PaymentTerms)).toEqual([...SPEC_TERMS].sort());
    expect(Object.keys(ServiceSummary.shape.links.shape).sort()).toEqual(['api', 'page']);
  });

  it('put api_status "preview" in every response body', () => {
    for (const [name, schema] of Object.entries(RESPONSES)) {
      const shape = (schema as z.ZodObject).shape as Record<string, z.ZodType>;
      expect(shape.api_status, name).toBeDefined();
      expect(shape.api_status!.safeParse('preview').success, name).toBe(true);
      expect(shape.api_status!.safeParse('stable').success, name).toBe(false);
    }
  });

  it('make notes an object of strings keyed by topic (never an array)', () => {
    expect(Notes.safeParse(NOTES).success).toBe(true);
    expect(Notes.safeParse(Object.values(NOTES)).success).toBe(false);
    for (const topic of ['tier', 'evidence_windows', 'pass_rules', 'name_sources', 'networks', 'tags', 'prices']) {
      expect(typeof (NOTES as Record<string, string>)[topic], topic).toBe('string');
    }
  });

  it('keep schedule_tier optional (dropped after its sunset) and referral_id optional on the single-service object', () => {
    expect(Evidence.shape.schedule_tier.safeParse(undefined).success).toBe(true);
    expect(ServiceDetail.shape.referral_id.safeParse(undefined).success).toBe(true);
  });

  it('reject members the contract does not name (strict objects)', () => {
    const r = ServiceSummary.safeParse({ unknown_member: 1 });
    expect(r.success).toBe(false);
    expect(r.error!.issues.some((i) => i.code === 'unrecognized_keys')).toBe(true);
  });

  it('generate JSON Schema for every named schema', () => {
    for (const [name, schema] of Object.entries(COMPONENTS)) {
      expect(() => z.toJSONSchema(schema), name).not.toThrow();
    }
  });
});

describe('field dictionary', () => {
  it('defines every member of every response and part (definition, source)', () => {
    expect(missingFieldDocs()).toEqual([]);
    for (const f of fieldEntries()) {
      expect(f.definition.length, `${f.resource}.${f.path}`).toBeGreaterThan(3);
    }
  });

  it('lists every member path of every named schema exactly once (inherited members under their owner)', () => {
    const listed = new Set(fieldEntries().map((f) => `${f.resource}.${f.path}`));
    for (const [name, schema] of Object.entries(COMPONENTS)) {
      for (const m of membersOf(schema)) {
        const own = `${name}.${m.path}`;
        const inherited = name === 'ServiceDetail' && m.path in ServiceSummary.shape ? `ServiceSummary.${m.path}` : null;
        expect(listed.has(own) || (inherited !== null && listed.has(inherited)), own).toBe(true);
      }
    }
    const all = fieldEntries().map((f) => `${f.resource}.${f.path}`);
    expect(new Set(all).size).toBe(all.length);
  });

  it('has no stale entries (every documented path exists)', () => {
    const listed = new Set(fieldEntries().map((f) => `${f.resource}.${f.path}`));
    const stale = Object.keys(FIELD_DOCS).filter((k) => !k.startsWith('*.') && !listed.has(k));
    expect(stale).toEqual([]);
  });

  it('gives units and windows for the windowed evidence counts', () => {
    const f = fieldEntries().find((e) => e.resource === 'Evidence' && e.path === 'checks_30d')!;
    expect(f.unit).toBe('checks');
    expect(f.window).toMatch(/30 days/);
    expect(f.source).toBe('measured');
  });
});
