/** Small shared pieces of the inline SVG charts. Numbers are rounded so output is stable for tests. */
import { esc } from '../html.ts';

/**
 * `n` rounded to one decimal, as `String(Math.round(n * 10) / 10)` writes it. A chart writes a few
 * hundred of these; below 10^14 the text is built from the integer tenths (same characters, no
 * shortest-double conversion), beyond that (and for NaN, ±Infinity) String decides.
 */
export function r1(n: number): string {
  const k = Math.round(n * 10);
  if (k % 10 === 0 || !(k > -1e15 && k < 1e15)) return String(k / 10);
  const a = k < 0 ? -k : k;
  const tenth = a % 10;
  return `${k < 0 ? '-' : ''}${(a - tenth) / 10}.${tenth}`;
}

export interface SvgFrame {
  width: number;
  height: number;
  title: string;
  desc: string;
  /** Unique within a page: used for aria-labelledby. */
  id: string;
}

/** The <svg> shell: sized by viewBox (scales with CSS), titled and described for screen readers. */
export function svgShell(frame: SvgFrame, body: string): string {
  const t = `${frame.id}-title`;
  const d = `${frame.id}-desc`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 ${frame.width} ${frame.height}" ` +
    `role="img" aria-labelledby="${esc(t)} ${esc(d)}" preserveAspectRatio="xMidYMid meet">` +
    `<title id="${esc(t)}">${esc(frame.title)}</title><desc id="${esc(d)}">${esc(frame.desc)}</desc>` +
    body +
    `</svg>`
  );
}

export function text(x: number, y: number, s: string, anchor: 'start' | 'middle' | 'end' = 'start', cls = 'axis'): string {
  return `<text x="${r1(x)}" y="${r1(y)}" text-anchor="${anchor}" class="${cls}">${esc(s)}</text>`;
}

/**
 * The plot area shared by the daily charts: one x slot per day inside fixed margins, so the check
 * history and the latency chart line up day for day (only the left margin, for y labels, differs).
 */
export interface DailyPlot {
  width: number;
  height: number;
  id: string;
  left: number;
  right: number;
  top: number;
  bottom: number;
  plotW: number;
  plotH: number;
  n: number;
  slot: number;
}

export function dailyPlot(
  days: number,
  opts: { width?: number; height?: number; id?: string },
  defaults: { id: string; left: number },
): DailyPlot {
  const width = opts.width ?? 600;
  const height = opts.height ?? 140;
  const left = defaults.left;
  const right = 6;
  const top = 8;
  const bottom = 22;
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const n = Math.max(days, 1);
  return { width, height, id: opts.id ?? defaults.id, left, right, top, bottom, plotW, plotH, n, slot: plotW / n };
}
