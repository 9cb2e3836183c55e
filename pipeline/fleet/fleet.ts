import { buildFleetView, createState } from './model.ts';
import { listen, reserveDeadPort, shutdown } from './server.ts';
import type { Fleet, FleetOptions } from './types.ts';

/**
 * Start the simulated ecosystem on 127.0.0.1 in this process (docs/CONTRACTS.md "Fleet"). Always
 * `close()` it in a finally block: it holds a listening socket and, while clients wait, hanging
 * requests. For benchmarks, startFleetProcess (process.ts) runs the same fleet in a child process.
 */
export async function startFleet(opts: FleetOptions): Promise<Fleet> {
  const state = createState(opts, { port: 0, deadPort: await reserveDeadPort() });
  const server = await listen(state);
  return buildFleetView(state, {
    close: () => shutdown(server),
    requestCount: () => state.requests,
  });
}
