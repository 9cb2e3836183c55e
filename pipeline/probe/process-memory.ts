import type { Store } from '../store/store.ts';

/**
 * Memory settings of a process whose work is one probe sweep (`atlas probe`; the probe benchmark's
 * prober applies the same). Why, in docs/notes/probe.md, "Heap growth and DuckDB's allocator":
 *
 * - V8 heap growth (pipeline/core/heap-growth.ts `limitHeapGrowth`, called by the command). What a
 *   sweep keeps alive is small (much of it loaded code), but it allocates fast and much
 *   of what it allocates lives across a network wait, so it is promoted and dies in the old space:
 *   the growth headroom, not live data, was most of the peak; fixing the factor costs no measurable
 *   CPU per check.
 * - DuckDB's allocator: the writer's inserts free memory in bursts; with background threads the
 *   allocator returns those pages to the system while the sweep runs, instead of keeping them
 *   until its next allocation in the same arena. The setting is the database instance's (this
 *   process's), so it is set on the probe's own store, never in `openStore` for every command.
 */
/** On the store the sweep writes to (or reads from, for a batch-file worker). */
export async function tuneStoreForSweep(store: Store): Promise<void> {
  await store.run('SET allocator_background_threads = true');
}
