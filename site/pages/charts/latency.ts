import type { DayBucket } from '../model.ts';
import { dailyPlot, r1, svgShell, text } from './svg.ts';

export interface LatencyChartOptions {
  id?: string;
  width?: number;
  height?: number;
}

/** The smallest of 1, 2, 2.5, 5 × 10^k at or above v (a round top for the y axis). */
export function niceCeil(v: number): number {
  if (!(v > 0)) return 100;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

const fmtAxis = (ms: number): string => (ms >= 1000 ? `${Number((ms / 1000).toFixed(2))} s` : `${Number(ms.toFixed(1))} ms`);

/**
 * Median latency per UTC day (milliseconds to the end of the body or abort), same x axis as the
 * check history: one dot per day with a latency, joined by a line; a day without one breaks the
 * line (nothing is interpolated). The y axis tops at a round number above the largest median.
 * Pure: the same buckets give the same string.
 */
export function latencySvg(days: readonly DayBucket[], opts: LatencyChartOptions = {}): string {
  const { width, height, id, left, top, plotW, plotH, slot } = dailyPlot(days.length, opts, { id: 'latency', left: 50 });
  const values = days.map((d) =>
    typeof d.median_latency_ms === 'number' && Number.isFinite(d.median_latency_ms) ? d.median_latency_ms : null,
  );
  const measured = values.filter((v): v is number => v !== null);
  const maxY = niceCeil(Math.max(0, ...measured));

  const parts: string[] = [];
  for (const f of [0, 0.5, 1]) {
    const y = top + plotH * (1 - f);
    parts.push(`<line class="grid" x1="${left}" y1="${r1(y)}" x2="${r1(left + plotW)}" y2="${r1(y)}"/>`);
  }
  const segments: string[][] = [];
  let current: string[] = [];
  const dots: string[] = [];
  values.forEach((v, i) => {
    if (v === null) {
      if (current.length) segments.push(current);
      current = [];
      return;
    }
    const x = r1(left + i * slot + slot / 2);
    const y = r1(top + plotH - (v / maxY) * plotH);
    current.push(`${x},${y}`);
    dots.push(`<circle class="dot" cx="${x}" cy="${y}" r="2.5"><title>${days[i]!.day}: median ${Math.round(v)} ms</title></circle>`);
  });
  if (current.length) segments.push(current);
  for (const s of segments) if (s.length > 1) parts.push(`<polyline class="line" points="${s.join(' ')}"/>`);
  parts.push(...dots);
  parts.push(text(left - 4, top + 4, fmtAxis(maxY), 'end'));
  parts.push(text(left - 4, top + plotH / 2 + 3, fmtAxis(maxY / 2), 'end'));
  parts.push(text(left - 4, top + plotH, '0', 'end'));
  const first = days[0]?.day;
  const last = days[days.length - 1]?.day;
  if (first) parts.push(text(left, height - 6, first, 'start'));
  if (last) parts.push(text(left + plotW, height - 6, last, 'end'));

  const sorted = [...measured].sort((a, b) => a - b);
  const desc =
    measured.length === 0
      ? `No latency measured in the ${days.length} days shown.`
      : `Median latency on ${measured.length} of ${days.length} days: lowest ${Math.round(sorted[0]!)} ms, highest ${Math.round(sorted[sorted.length - 1]!)} ms.`;
  return svgShell({ width, height, id, title: 'Median latency per day (milliseconds)', desc }, parts.join(''));
}
