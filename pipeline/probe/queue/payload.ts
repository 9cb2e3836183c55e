import { z } from 'zod';
import { OperationKind } from '../../../site/contract/common.ts';
import { AtlasError, formatIssues } from '../../core/errors.ts';
import { RUN_ID_RE } from '../../store/runs.ts';
import type { DueOperation } from '../due.ts';
import { PassRuleSchema } from '../reasons.ts';

/**
 * One probe job's payload: everything a worker needs to probe without the database. The due
 * operations of one slot (a chunk of at most JOB_SIZE of the writer's `selectDue` list, so the due
 * rule keeps one home) and the writer's run they are checked for (the checks carry its id, as a
 * local run's checks carry their run's). A worker validates the payload before it probes.
 */
export const JOB_SIZE = 500;

const Op = z.strictObject({
  service_id: z.string().min(1),
  operation: z.string().min(1),
  kind: OperationKind,
  url: z.string().min(1),
  method: z.string().min(1),
  expected_statuses: z.array(z.number().int()),
  pass_rule: PassRuleSchema,
  interval_hours: z.number().int().positive(),
  protocol: z.string().nullable(),
  slot: z.iso.datetime({ offset: true }),
});

export const ProbeJobPayload = z.strictObject({
  format: z.literal('atlas-probe-job/1'),
  run_id: z.string().regex(RUN_ID_RE),
  ops: z.array(Op).min(1).max(JOB_SIZE),
});
export type ProbeJobPayload = z.infer<typeof ProbeJobPayload>;

export function jobPayload(runId: string, ops: readonly DueOperation[]): ProbeJobPayload {
  return {
    format: 'atlas-probe-job/1',
    run_id: runId,
    ops: ops.map((o) => ({
      service_id: o.serviceId,
      operation: o.operation,
      kind: o.kind,
      url: o.url,
      method: o.method,
      expected_statuses: o.expectedStatuses,
      pass_rule: o.passRule,
      interval_hours: o.intervalHours,
      protocol: o.protocol,
      slot: o.slot.toISOString(),
    })),
  };
}

/** The payload's operations in the engine's shape; a payload of another shape is `invalid_input`. */
export function dueOperationsOf(data: unknown): { runId: string; ops: DueOperation[] } {
  const p = ProbeJobPayload.safeParse(data);
  if (!p.success) throw new AtlasError('invalid_input', `probe job payload: ${formatIssues(p.error.issues)}`);
  return {
    runId: p.data.run_id,
    ops: p.data.ops.map((o) => ({
      serviceId: o.service_id,
      operation: o.operation,
      kind: o.kind,
      url: o.url,
      method: o.method,
      expectedStatuses: o.expected_statuses,
      passRule: o.pass_rule,
      intervalHours: o.interval_hours,
      protocol: o.protocol,
      slot: new Date(o.slot),
    })),
  };
}
