import { TEXT_LIMITS } from '../../core/sanitize.ts';
import { isRecord } from '../source.ts';

/**
 * Soft-dropping of a catalog item's optional metadata (docs/notes/ingest.md, "Soft-dropped
 * metadata"). The discovery format lets a catalog drop an invalid optional field and keep the
 * resource; Atlas does the same, field by field, so one bad label never costs a service:
 * - `serviceName`, `label`: a string of at most TEXT_LIMITS.name characters (a longer one is not a
 *   name but a payload; it is dropped, not cut);
 * - `description`: a string (longer text is capped by the sanitizer as before);
 * - `tags`: an array (entries that are not strings, or not tags by the API's rule, are then reduced
 *   away one by one, as for every registry's tags);
 * - `iconUrl`: an absolute https URL of at most 2048 characters.
 * The same rules apply to the same fields of a `resource` object. A dropped field is removed from the
 * item before anything reads it (the stored raw item included); the item is counted once under the
 * quirk `dropped_metadata`, and each field under its name in the run's `dropped_fields`. Pure.
 */
export const SOFT_METADATA_FIELDS = ['serviceName', 'label', 'description', 'tags', 'iconUrl'] as const;
export type SoftMetadataField = (typeof SOFT_METADATA_FIELDS)[number];

const MAX_ICON_URL = 2048;

function httpsUrl(v: string): boolean {
  if (v.length > MAX_ICON_URL) return false;
  try {
    return new URL(v).protocol === 'https:';
  } catch {
    return false;
  }
}

/** Whether a present value of the field is valid (absent and null fields are not checked). */
export function validMetadata(field: SoftMetadataField, v: unknown): boolean {
  switch (field) {
    case 'serviceName':
    case 'label':
      return typeof v === 'string' && v.length <= TEXT_LIMITS.name;
    case 'description':
      return typeof v === 'string';
    case 'tags':
      return Array.isArray(v);
    case 'iconUrl':
      return typeof v === 'string' && httpsUrl(v.trim());
  }
}

function dropInvalid(obj: Record<string, unknown>, prefix: string, dropped: string[]): Record<string, unknown> {
  let out = obj;
  for (const f of SOFT_METADATA_FIELDS) {
    const v = obj[f];
    if (v === undefined || v === null || validMetadata(f, v)) continue;
    if (out === obj) out = { ...obj };
    delete out[f];
    dropped.push(`${prefix}${f}`);
  }
  return out;
}

/** The item without its invalid optional metadata, and the names of the fields dropped (`resource.` for the resource object's). */
export function softDropMetadata(item: Record<string, unknown>): { item: Record<string, unknown>; dropped: string[] } {
  const dropped: string[] = [];
  let out = dropInvalid(item, '', dropped);
  if (isRecord(out.resource)) {
    const res = dropInvalid(out.resource, 'resource.', dropped);
    if (res !== out.resource) out = { ...out, resource: res };
  }
  return { item: out, dropped };
}
