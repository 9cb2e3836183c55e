import type { DayBucket } from '../model.ts';
import { dailyPlot, r1, svgShell, text } from './svg.ts';

export interface HistoryChartOptions {
  id?: string;
  width?: number;
  height?: number;
}

/**
 * 30-day check history: one column per UTC day, height = checks that ran that day (scaled to the
 * busiest day), split into passed (bottom, class `pass`) and failed (top, class `fail`). A day with no
 * check shows a short grey tick (class `none`), so gaps are visible and never read as failures.
 * Pure: the same buckets give the same string.
 */
export function checkHistorySvg(days: readonly DayBucket[], opts: HistoryChartOptions = {}): string {
  const { width, height, id, left, top, plotW, plotH, slot } = dailyPlot(days.length, opts, { id: 'history', left: 34 });
  const barW = Math.max(1, slot * 0.75);
  let max = 1;
  let total = 0;
  let passed = 0;
  let empty = 0;
  for (const d of days) {
    max = Math.max(max, d.checks);
    total += d.checks;
    passed += d.passed;
    if (d.checks === 0) empty += 1;
  }

  const parts: string[] = [];
  parts.push(`<line class="grid" x1="${left}" y1="${r1(top + plotH)}" x2="${r1(left + plotW)}" y2="${r1(top + plotH)}"/>`);
  parts.push(`<line class="grid" x1="${left}" y1="${top}" x2="${r1(left + plotW)}" y2="${top}"/>`);
  // The same for every bar: written once.
  const base = top + plotH;
  const width1 = r1(barW);
  const noneY = r1(base - 2);
  for (let i = 0; i < days.length; i++) {
    const d = days[i]!;
    const x = r1(left + i * slot + (slot - barW) / 2);
    if (d.checks === 0) {
      parts.push(`<rect class="none" x="${x}" y="${noneY}" width="${width1}" height="2"><title>${d.day}: no checks</title></rect>`);
      continue;
    }
    const failed = d.checks - d.passed;
    const hPass = (d.passed / max) * plotH;
    const hFail = (failed / max) * plotH;
    parts.push(`<g><title>${d.day}: ${d.passed} of ${d.checks} checks passed</title>`);
    if (hPass > 0) parts.push(`<rect class="pass" x="${x}" y="${r1(base - hPass)}" width="${width1}" height="${r1(hPass)}"/>`);
    if (hFail > 0) parts.push(`<rect class="fail" x="${x}" y="${r1(base - hPass - hFail)}" width="${width1}" height="${r1(hFail)}"/>`);
    parts.push('</g>');
  }
  parts.push(text(left - 4, top + 4, String(max), 'end'));
  parts.push(text(left - 4, top + plotH, '0', 'end'));
  const first = days[0]?.day;
  const last = days[days.length - 1]?.day;
  if (first) parts.push(text(left, height - 6, first, 'start'));
  if (last) parts.push(text(left + plotW, height - 6, last, 'end'));

  const desc =
    total === 0
      ? `No checks ran in the ${days.length} days shown.`
      : `${passed} of ${total} checks passed over ${days.length} days from ${first} to ${last}; ${empty} days without checks.`;
  return svgShell({ width, height, id, title: 'Checks per day: passed and failed', desc }, parts.join(''));
}
