import { setFlagsFromString } from 'node:v8';

/**
 * V8's old-space growth factor for the batch processes that allocate much short-lived memory:
 * `atlas probe` (a sweep), `atlas publish` and `atlas cycle` (rendering 100,000 services).
 *
 * After a full collection V8 lets the old space grow to up to 4 times what survived it before it
 * collects again; in these processes that headroom, not live data, is most of the peak RSS.
 * `--heap-growing-percent=100` fixes the factor at 2: the old space is collected about twice as
 * often. The heap limit stays Node's default (nothing is capped: a larger live set still gets
 * room). Measured: a probe sweep (docs/notes/probe.md, "Heap growth and DuckDB's allocator") and a
 * full publish of 100,000 services, whose peak RSS fell clearly at the same wall time
 * (docs/notes/incremental-publish.md). The flag is read by V8 at every full collection, so it may
 * be set after start-up. Process-wide: called by the CLI command (and the benchmark children that
 * stand for it), never by library code.
 */
export const HEAP_GROWING_PERCENT = 100;

export function limitHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
