import { startFleet } from './fleet.ts';
import type { FleetMessage } from './model.ts';
import type { Fleet } from './types.ts';
import { decodeOptions, type StartMessage } from './wire.ts';

/**
 * Entry of a fleet child process (started by startFleetProcess, process.ts). Receives its options
 * over IPC, answers `ready` with its ports, applies forwarded mutations, reports its request count
 * every half second, and closes on `close`. Its clock is fixed and moved by `setNow` messages (or
 * follows the system clock when asked).
 */
let fleet: Fleet | null = null;
let now = new Date(0);
let followSystem = false;
let stats: NodeJS.Timeout | null = null;
const send = (m: unknown): void => {
  if (process.connected) process.send?.(m);
};

process.on('message', (raw: StartMessage | FleetMessage | { type: 'close' }) => {
  void (async () => {
    try {
      if (raw.type === 'start') {
        const opts = decodeOptions(raw.options);
        now = new Date(raw.now);
        followSystem = raw.clock === 'system';
        fleet = await startFleet({ ...opts, clock: () => (followSystem ? new Date() : new Date(now.getTime())) });
        stats = setInterval(
          () => send({ type: 'stats', requests: fleet?.requestCount() ?? 0, cpu: process.cpuUsage(), rss: process.memoryUsage().rss }),
          500,
        );
        stats.unref();
        send({ type: 'ready', port: fleet.port, deadPort: fleet.deadPort });
      } else if (raw.type === 'setNow') {
        now = new Date(raw.at);
        if (raw.id !== undefined)
          send({ type: 'ack', id: raw.id, requests: fleet?.requestCount() ?? 0, cpu: process.cpuUsage(), rss: process.memoryUsage().rss });
      } else if (raw.type === 'setListed') {
        now = new Date(raw.at); // the parent's clock is authoritative: the change happens at its time
        fleet?.setListed(raw.name, raw.listed);
      } else if (raw.type === 'setDoc') {
        fleet?.setDoc(raw.name, raw.content);
      } else if (raw.type === 'setQuirks') {
        fleet?.setRegistryQuirks(raw.quirks);
      } else if (raw.type === 'close') {
        if (stats) clearInterval(stats);
        await fleet?.close();
        send({ type: 'closed' });
        process.disconnect();
      }
    } catch (e) {
      send({ type: 'error', message: (e as Error).message });
    }
  })();
});

// The parent went away (finished, crashed or was killed): close the fleet so this process ends
// instead of lingering with a listening socket.
process.once('disconnect', () => {
  if (stats) clearInterval(stats);
  void fleet?.close();
});
