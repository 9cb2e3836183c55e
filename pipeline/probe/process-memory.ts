import { HEAP_GROWING_PERCENT, limitHeapGrowth } from '../core/heap-growth.ts';
import type { Store } from '../store/store.ts';

/**
 * Memory settings of a process whose work is one probe sweep (`atlas probe`; the probe benchmark's
 * prober applies the same). Measured in docs/notes/probe.md, "Heap growth and DuckDB's allocator":
 *
 * - V8 heap growth. What a sweep keeps alive is small (about 30 MB, half of it loaded code), but it
 *   allocates fast and much of what it allocates lives across a network wait, so it is promoted and
 *   dies in the old space. V8 then lets the old space grow to up to 4 times what survived the last
 *   full collection before it collects again: that headroom, not live data, was most of the peak.
 *   `--heap-growing-percent=100` fixes the factor at 2: V8 collects the old space about twice as
 *   often, at no measurable cost in CPU per check. The heap limit itself stays Node's
 *   default: nothing is capped, a larger live set still gets room. The flag is read by V8 at every
 *   full collection, so it may be set after start-up.
 * - DuckDB's allocator: the writer's inserts free memory in bursts; with background threads the
 *   allocator returns those pages to the system while the sweep runs, instead of keeping them
 *   until its next allocation in the same arena. The setting is the database instance's (this
 *   process's), so it is set on the probe's own store, never in `openStore` for every command.
 */
export const SWEEP_HEAP_GROWING_PERCENT = HEAP_GROWING_PERCENT;

/** Process-wide; call once at the start of a probe process, before the sweep (pipeline/core/heap-growth.ts). */
export const limitHeapGrowthForSweep = limitHeapGrowth;

/** On the store the sweep writes to (or reads from, for a batch-file worker). */
export async function tuneStoreForSweep(store: Store): Promise<void> {
  await store.run('SET allocator_background_threads = true');
}
