/**
 * A pipeline process that dies mid-run (for the crash-safety tests): opens the database read-write,
 * starts a run of kind `argv[3]` at `argv[4]` (simulated time), prints `running <run id>` and then
 * never finishes, holding the file until it is killed.
 *   node --import tsx test/integration/chaos-hold-child.ts <db file> <kind> <iso time>
 */
import { fixedClock } from '../../pipeline/core/clock.ts';
import { migrate, openStore, withRun } from '../../pipeline/store/index.ts';

const [db, kind, at] = process.argv.slice(2);
if (!db || !kind || !at) throw new Error('usage: chaos-hold-child.ts <db> <kind> <iso time>');
const now = new Date(at);
const store = await openStore(db);
await migrate(store, now);
await withRun(store, kind, { clock: fixedClock(now) }, async (run) => {
  process.stdout.write(`running ${run.id}\n`);
  await new Promise<never>(() => setInterval(() => undefined, 60_000)); // until SIGKILL
});
