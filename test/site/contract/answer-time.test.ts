import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AnswerInstant,
  completeDetail,
  completeSummary,
  freshnessInputsOf,
  type GenerationInstants,
  summaryAtGeneration,
} from '../../../site/contract/answer-time.ts';
import { SCHEDULE_TIER_SUNSET_AT } from '../../../site/contract/common.ts';
import { IndexRecord, IndexRecordFile } from '../../../site/contract/index-record.ts';
import { ServiceDetail, ServiceDetailFile } from '../../../site/contract/service-detail.ts';
import { ServiceSummary } from '../../../site/contract/summary.ts';
import { contractArbitrary, instantArb } from '../../helpers/contract-arbitrary.ts';

/**
 * The property of answer-time completion (site/contract/answer-time.ts): for any published file
 * (generated from the contract's file schemas), any generation and any answer instant, the file
 * completed parses as the served contract object, and completion is deterministic and leaves the
 * file as it was.
 */
const generationArb: fc.Arbitrary<GenerationInstants> = fc.record({
  generatedAt: instantArb,
  dataAsOf: fc.option(instantArb, { nil: null }),
  fullEvaluationAt: fc.option(instantArb, { nil: null }),
});

// Answer instants on both sides of the schedule_tier sunset; base URLs absent, bare or with slashes.
const answerArb: fc.Arbitrary<AnswerInstant> = fc.record({
  now: fc.oneof(
    fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2035-12-31T00:00:00Z'), noInvalidDate: true }),
    fc.constantFrom(new Date(SCHEDULE_TIER_SUNSET_AT.getTime() - 1), SCHEDULE_TIER_SUNSET_AT),
  ),
  baseUrl: fc.option(
    fc.oneof(
      fc.webUrl(),
      fc.webUrl().map((u) => `${u}//`),
    ),
    { nil: undefined },
  ),
});

function expectValid<T>(schema: { safeParse(v: unknown): { success: boolean; error?: unknown } }, value: T, what: string): void {
  const r = schema.safeParse(value);
  expect(r.success, `${what}: ${JSON.stringify(r.error)}`).toBe(true);
}

describe('answer-time completion', () => {
  it('turns any published record and single-service file into valid contract objects, deterministically', () => {
    fc.assert(
      fc.property(
        contractArbitrary(IndexRecordFile),
        contractArbitrary(ServiceDetailFile),
        generationArb,
        answerArb,
        (record, file, gen, answer) => {
          // The factory's values are files the contract accepts (else the property would test nothing).
          expectValid(IndexRecordFile, record, 'generated index record');
          expectValid(ServiceDetailFile, file, 'generated service file');
          const recordBefore = JSON.stringify(record);
          const fileBefore = JSON.stringify(file);
          const inputs = freshnessInputsOf(record.search);

          // The loader's stage: the record the server checks and compiles.
          expectValid(IndexRecord, { ...record, summary: summaryAtGeneration(record.summary, gen) }, 'loaded record');

          const summary = completeSummary(record.summary, inputs, gen, answer);
          expectValid(ServiceSummary, summary, 'served summary');
          const detail = completeDetail(file, inputs, gen, answer);
          expectValid(ServiceDetail, detail, 'served detail');

          // Deterministic: the same inputs give the same object, member order included.
          expect(JSON.stringify(completeSummary(record.summary, inputs, gen, answer))).toBe(JSON.stringify(summary));
          expect(JSON.stringify(completeDetail(file, inputs, gen, answer))).toBe(JSON.stringify(detail));
          // Pure: the published values (shared by every request) are left as they were.
          expect(JSON.stringify(record)).toBe(recordBefore);
          expect(JSON.stringify(file)).toBe(fileBefore);

          // The generation's and the answer's values are the ones served.
          expect(detail.generated_at).toBe(gen.generatedAt);
          expect(detail.data_as_of).toBe(gen.dataAsOf);
          expect(detail.in_directory).toBe(inputs.criteriaExceptFresh && detail.evidence.freshness === 'fresh');
          expect(summary.evidence.freshness).toBe(detail.evidence.freshness);
          expect('schedule_tier' in summary.evidence).toBe(answer.now < SCHEDULE_TIER_SUNSET_AT);
        },
      ),
      { numRuns: 150 },
    );
  });
});
