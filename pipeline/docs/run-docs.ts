import type { Context } from '../core/context.ts';
import { runProbe, type ProbeOptions } from '../probe/run-probe.ts';
import { migrate, type Store } from '../store/index.ts';
import { createDocumentationSink } from './sink.ts';

/**
 * `atlas docs`: a probe run of the documentation operations only (the probe records their checks —
 * the reviewed service's daily operation in its evidence — and a `runs` row of kind `docs`), with the
 * documentation sink recording snapshots and changes.
 */
export async function runDocs(ctx: Context, store: Store, opts: Omit<ProbeOptions, 'only' | 'onDocumentation'> = {}) {
  await migrate(store, ctx.clock());
  return runProbe(ctx, store, { ...opts, only: 'documentation', onDocumentation: createDocumentationSink(ctx, store) });
}
