/**
 * Whether JSON text nests arrays/objects deeper than `max` (brackets inside strings do not count).
 * JSON.parse itself copes with any depth, but recursive consumers (JSON.stringify, canonical
 * sorting, validators) overflow the stack: untrusted JSON past the cap is refused before anything
 * walks it (registry ingest, documentation pages). Linear, no allocation.
 */
export const MAX_JSON_DEPTH = 256;

export function nestingDeeperThan(text: string, max: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
