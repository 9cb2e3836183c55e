import { describe, expect, it } from 'vitest';
import { createProgress, formatEta, progressLine } from '../../../pipeline/probe/progress.ts';
import { silentLogger } from '../../../pipeline/core/log.ts';

describe('progress', () => {
  it('formats done/total, rate and ETA', () => {
    expect(progressLine(500, 2000, 10_000)).toBe('probe 500/2000  50.0/s  ETA 0:30');
    expect(formatEta(3725)).toBe('1:02:05');
    expect(formatEta(Infinity)).toBe('--:--');
  });
  it('draws a live line only on a TTY', () => {
    const out: string[] = [];
    const p = createProgress({ total: 2, tty: true, log: silentLogger, write: (s) => out.push(s) });
    p.tick();
    p.tick();
    p.end();
    expect(out.some((s) => s.includes('probe 2/2'))).toBe(true);
    const quiet: string[] = [];
    const q = createProgress({ total: 2, tty: false, log: silentLogger, write: (s) => quiet.push(s) });
    q.tick();
    q.end();
    expect(quiet).toEqual([]);
  });
});
