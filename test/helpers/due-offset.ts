import { createHash } from 'node:crypto';
import { SPREAD_STEPS_MINUTES, slotStart } from '../../pipeline/core/slots.ts';

/**
 * A reference implementation of the due-offset rule, for tests and benchmarks only: the rule's one
 * home is the SQL macro atlas_due_offset_ms (pipeline/store/rules.sql), which the probe's due list
 * uses. Written independently from the rule's description (docs/notes/compute.md, "When a check is
 * due") so a test can hold the macro to it.
 */
export function operationHash(serviceId: string, operation: string): number {
  return createHash('md5').update(`${serviceId}/${operation}`, 'utf8').digest().readUInt32BE(0);
}

/** The operation's offset inside each of its slots, in milliseconds (0 without spread). */
export function dueOffsetMs(serviceId: string, operation: string, intervalHours: number, spreadMinutes: number): number {
  if (!spreadMinutes) return 0;
  if (!(SPREAD_STEPS_MINUTES as readonly number[]).includes(spreadMinutes))
    throw new Error(`spread step ${spreadMinutes} does not divide 60 minutes`);
  const positions = (intervalHours * 60) / spreadMinutes;
  return (operationHash(serviceId, operation) % positions) * spreadMinutes * 60_000;
}

/** The instant the operation falls due in the slot that contains `at`: slot start + offset. */
export function dueAt(at: Date, intervalHours: number, offsetMs: number): Date {
  return new Date(slotStart(at, intervalHours).getTime() + offsetMs);
}
