import { performance } from 'node:perf_hooks';
import type { Logger } from '../core/log.ts';

/**
 * Progress of a run. On a TTY: one live line on stderr (done/total, rate, ETA),
 * redrawn at most 5 times a second. With --json: a JSON progress line every `jsonEveryMs`.
 * Otherwise silent until the caller's one summary line. Wall time here is display only, never a rule.
 */
export interface ProgressOptions {
  total: number;
  tty: boolean;
  log: Logger;
  write?: (s: string) => void;
  jsonEveryMs?: number;
}

export const formatEta = (s: number): string => {
  if (!Number.isFinite(s)) return '--:--';
  const t = Math.max(0, Math.round(s));
  const h = Math.floor(t / 3600);
  const m = Math.floor((t % 3600) / 60);
  const sec = t % 60;
  return `${h ? `${h}:${String(m).padStart(2, '0')}` : String(m)}:${String(sec).padStart(2, '0')}`;
};

export function progressLine(done: number, total: number, elapsedMs: number): string {
  const rate = elapsedMs > 0 ? (done * 1000) / elapsedMs : 0;
  const eta = rate > 0 ? (total - done) / rate : Infinity;
  return `probe ${done}/${total}  ${rate.toFixed(1)}/s  ETA ${formatEta(eta)}`;
}

export function createProgress(o: ProgressOptions) {
  const t0 = performance.now();
  const write = o.write ?? ((s: string) => process.stderr.write(s));
  let done = 0;
  let lastDraw = 0;
  let lastJson = t0;
  const every = o.jsonEveryMs ?? 5000;
  return {
    tick(): void {
      done++;
      const now = performance.now();
      if (o.log.json) {
        if (now - lastJson >= every) {
          lastJson = now;
          o.log.info('probe progress', { done, total: o.total, rate: Number(((done * 1000) / (now - t0)).toFixed(1)) });
        }
      } else if (o.tty && (now - lastDraw >= 200 || done === o.total)) {
        lastDraw = now;
        write(`\r\x1b[2K${progressLine(done, o.total, now - t0)}`);
      }
    },
    end(): void {
      if (o.tty && !o.log.json && o.total > 0) write('\r\x1b[2K');
    },
    elapsedMs: () => performance.now() - t0,
  };
}
