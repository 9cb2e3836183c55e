import type { Context } from '../../pipeline/core/context.ts';
import { createProbeAgent, runProbe, safeFetch, type Fetcher } from '../../pipeline/probe/index.ts';
import type { Store } from '../../pipeline/store/index.ts';
import type { SimClock } from './sim-clock.ts';

/**
 * A request still open this long after the last one of its slot started is one the fleet is holding
 * (hanging or slow endpoints; the fleet answers everything else well within it): the fleet has already
 * read its clock for it, so the shared clock may move on to the next slot.
 */
const RELEASE_AFTER_MS = 40;

export interface SlotProbe {
  /** Every request of the slot has reached the fleet: the shared clock may move on. */
  released: Promise<void>;
  /** The probe run has stored its checks (resolves to the number stored). */
  done: Promise<number>;
}

/**
 * The call probes of one hourly slot, run so that the next slot need not wait for this one's
 * timeouts: the run gets its own clock (`at` plus real elapsed time; its slots and check times come
 * from it, as `atlas probe --now` would), the shared clock — the fleet's — is set to `at` while its
 * requests go out, and `released` resolves once they have. Hanging endpoints then time out in the
 * background while later slots are probed; the store serializes the runs' writes. Without this a
 * 14-day hourly back-fill waits for one probe timeout per simulated hour.
 */
export function startSlotProbe(
  ctx: Context,
  store: Store,
  clock: SimClock,
  at: Date,
  opts: { probeTimeoutMs: number; probeConcurrency: number },
): SlotProbe {
  clock.set(at);
  const realStart = performance.now();
  const slotClock = () => new Date(at.getTime() + (performance.now() - realStart));
  const cfg = ctx.config.probe;
  const agent = createProbeAgent({
    timeoutMs: opts.probeTimeoutMs,
    maxHeaderBytes: cfg.maxHeaderBytes,
    allowPrivate: true,
    resolveMap: cfg.resolve,
  });
  let started = 0;
  let lastStart = 0;
  const fetcher: Fetcher = (req) => {
    started++;
    lastStart = performance.now();
    return safeFetch(req, {
      timeoutMs: opts.probeTimeoutMs,
      maxBodyBytes: cfg.maxBodyBytes,
      maxHeaderBytes: cfg.maxHeaderBytes,
      allowPrivate: true,
      resolveMap: cfg.resolve,
      dispatcher: agent,
    });
  };
  const done = runProbe({ ...ctx, clock: slotClock }, store, {
    only: 'calls',
    allowPrivate: true,
    timeoutMs: opts.probeTimeoutMs,
    concurrency: opts.probeConcurrency,
    fetcher,
  })
    .then((r) => r.counts.stored)
    .finally(() => agent.close().catch(() => undefined));
  const released = new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      if (started > 0 && performance.now() - lastStart >= RELEASE_AFTER_MS) finish();
    }, 10);
    const finish = () => {
      clearInterval(timer);
      resolve();
    };
    done.then(finish, finish);
  });
  return { released, done };
}
