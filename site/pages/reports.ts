import { html, type Html } from './html.ts';
import { fmtTime } from './format.ts';
import { renderLayout } from './layout.ts';
import type { PageMeta } from './model.ts';

/**
 * A weekly report as the page needs it. Deliberately loose: the frozen `report` body is whatever the
 * reports step froze (its members are documented there), rendered generically as path → value.
 */
export interface ReportView {
  id: string;
  week_start?: string;
  week_end?: string;
  status?: string;
  frozen_at?: string | null;
  report: Record<string, unknown>;
  corrections: Array<{ seq: number; corrected_at: string; note: string; figures: Record<string, unknown> }>;
}

/** Flatten a nested body into [path, value] rows (arrays and scalars are leaves). */
export function flattenFigures(value: unknown, prefix = ''): Array<[string, string]> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return [[prefix, Array.isArray(value) ? value.join(', ') : value === null ? '—' : String(value)]];
  }
  const out: Array<[string, string]> = [];
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) out.push(...flattenFigures(v, prefix ? `${prefix}.${k}` : k));
  return out;
}

const SKIP = new Set(['week', 'week_start', 'week_end', 'figures_until', 'provisional']);

function figuresTable(report: Record<string, unknown>, corrected: Set<string>): Html {
  const sections = Object.entries(report).filter(([k]) => !SKIP.has(k));
  return html`${sections.map(([name, v]) => {
    const rows = flattenFigures(v, name);
    return html`<table class="figures"><caption class="strong">${name.replace(/_/g, ' ')}</caption>
<tbody>${rows.map(
      ([p, val]) =>
        html`<tr><th scope="row" class="plain">${p.slice(name.length + 1) || name}</th><td class="num">${val}${corrected.has(p) ? html` <span class="badge stale" title="A correction below concerns this figure">corrected below</span>` : html``}</td></tr>`,
    )}</tbody></table>`;
  })}`;
}

export function renderReport(r: ReportView, open: boolean): Html {
  const corrected = new Set(r.corrections.flatMap((c) => Object.keys(c.figures)));
  const title = r.id === 'current' ? `This week so far (from ${r.week_start ?? '?'})` : `Week of ${r.week_start ?? r.id}`;
  return html`<section class="report" id="week-${r.id}" aria-labelledby="h-week-${r.id}">
<h2 id="h-week-${r.id}">${title}</h2>
<p class="muted">${r.status === 'provisional' || r.id === 'current' ? 'Provisional week-to-date figures; they change as checks arrive.' : html`Frozen ${fmtTime(r.frozen_at ?? null)}; the figures never change. Corrections are published alongside.`} <a href="/api/v1/reports/${r.id}">JSON</a></p>
${
  r.corrections.length
    ? html`<div class="notice hint"><strong>Corrections (${r.corrections.length})</strong><ol>${r.corrections.map(
        (c) =>
          html`<li>${fmtTime(c.corrected_at)}: ${c.note}${Object.keys(c.figures).length ? html` — ${Object.entries(c.figures).map(([k, v], i) => html`${i ? '; ' : ''}<code>${k}</code> = ${String(v)}`)}` : html``}</li>`,
      )}</ol></div>`
    : html``
}
<details${open ? html` open` : html``}><summary>Figures</summary>${figuresTable(r.report, corrected)}</details>
</section>`;
}

/** The reports page: the current week first (when given), then each frozen week, newest first, with corrections. */
export function renderReportsPage(input: { current: ReportView | null; weeks: ReportView[] }, meta: PageMeta): string {
  const body = html`<h1>Weekly reports</h1>
<p class="lede">Each week (Monday to Monday, UTC) is frozen once it ends; the figures never change, and corrections are listed with them. Outcome reports from agents are unverified and never turned into rates.</p>
${input.weeks.length ? html`<nav aria-label="Weeks"><p>${input.weeks.map((w, i) => html`${i ? ' · ' : ''}<a href="#week-${w.id}">${w.id}</a>`)}</p></nav>` : html``}
${input.current ? renderReport(input.current, input.weeks.length === 0) : html``}
${input.weeks.length ? input.weeks.map((w, i) => renderReport(w, i === 0)) : html`<p class="muted">No week has ended since Atlas started; the first report is frozen after the first full week.</p>`}`;
  return renderLayout({ title: 'Reports', nav: 'reports', body }, meta);
}
