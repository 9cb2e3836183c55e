import { html } from './html.ts';
import { fmtInt, fmtTime, intervalLabel } from './format.ts';
import { renderLayout } from './layout.ts';
import type { PageMeta, RunRecord, Stats, Status } from './model.ts';

function runStatus(r: RunRecord | null) {
  if (!r) return html`<span class="muted">never</span>`;
  const cls = r.status === 'ok' ? 'yes' : r.status === 'failed' ? 'no' : '';
  return html`<span class="${cls}">${r.status}</span> ${fmtTime(r.finished_at ?? r.started_at)}`;
}

/** A job's cadence in minutes: a check-interval name when it is one (hourly, daily, weekly), else minutes. */
function cadenceLabel(minutes: number): string {
  return minutes % 60 === 0 ? intervalLabel(minutes / 60) : `every ${minutes} min`;
}

/** Atlas's own runs: each scheduled job per window (scheduled / ran / missed), evidence freshness, latest runs. */
export function renderStatusPage(input: { status: Status; stats?: Stats | null }, meta: PageMeta): string {
  const s = input.status;
  const st = input.stats ?? null;
  const f = s.evidence_freshness;
  const body = html`<h1>Status</h1>
<p class="lede">Atlas's own scheduled runs, the runs it missed, and how fresh the evidence is${s.operating_since ? html` (operating since ${fmtTime(s.operating_since)})` : html``}.</p>
<dl class="facts">
<dt>Expected cycle</dt><dd>${cadenceLabel(s.cycle_every_minutes)} (<code>atlas cycle</code> from cron); the jobs due every cycle are expected at that cadence, so a cycle that did not run shows as missed slots</dd>
<dt>Evidence freshness</dt><dd>${fmtInt(f.fresh)} fresh · ${fmtInt(f.stale)} stale · ${fmtInt(f.no_data)} no data (of ${fmtInt(f.total)} services)</dd>
<dt>Figures computed</dt><dd>${s.data_as_of ? fmtTime(s.data_as_of) : html`<span class="muted">never</span>`}</dd>
${
  st
    ? html`<dt>Services tracked</dt><dd>${fmtInt(st.totals.services)} (${fmtInt(st.totals.in_directory)} in the directory; ${fmtInt(st.totals.by_tier.reviewed)} reviewed, ${fmtInt(st.totals.by_tier.discovered)} discovered)</dd>
<dt>Checks in the last 24 h</dt><dd>${fmtInt(st.checks_24h)} (${fmtInt(st.passed_24h)} passed) — reviewed ${fmtInt(st.checks_24h_by_kind.reviewed)}, x402 ${fmtInt(st.checks_24h_by_kind.x402)}, MCP ${fmtInt(st.checks_24h_by_kind.mcp)}</dd>`
    : html``
}
</dl>
<h2>Scheduled jobs</h2>
<div class="table-scroll"><table><caption class="muted">Scheduled, ran and missed runs per window; a missed run is a scheduled slot with no run.</caption>
<thead><tr><th scope="col">Job</th><th scope="col">Every</th><th scope="col" class="num">24 h</th><th scope="col" class="num">7 days</th><th scope="col" class="num">30 days</th><th scope="col">Latest</th></tr></thead>
<tbody>${s.jobs.map((j) => {
    const w = (k: '24h' | '7d' | '30d') => {
      const x = j.windows[k];
      return html`${fmtInt(x.ran)}/${fmtInt(x.scheduled)}${x.missed ? html` <span class="no">(${fmtInt(x.missed)} missed)</span>` : html``}`;
    };
    return html`<tr><td>${j.kind}</td><td>${cadenceLabel(j.every_minutes)}</td><td class="num">${w('24h')}</td><td class="num">${w('7d')}</td><td class="num">${w('30d')}</td><td>${runStatus(j.latest)}</td></tr>`;
  })}</tbody></table></div>
${s.backfills.map(
  (b) =>
    html`<p class="muted">Back-filled history from ${fmtTime(b.from)} to ${fmtTime(b.until)}: this instance's past was simulated by <code>atlas demo</code>, probing every scheduled slot at simulated times (documentation and reports in theirs); ${b.uncounted_jobs.join(' and ')} ran less often than hourly then, so their slots in that period are not counted above.</p>`,
)}
<h2>Latest runs</h2>
${
  s.latest_runs.length
    ? html`<div class="table-scroll"><table><thead><tr><th scope="col">Kind</th><th scope="col">Scheduled</th><th scope="col">Started</th><th scope="col">Finished</th><th scope="col">Status</th></tr></thead>
<tbody>${s.latest_runs.map(
        (r) =>
          html`<tr><td>${r.kind}</td><td>${fmtTime(r.scheduled_at)}</td><td>${fmtTime(r.started_at)}</td><td>${fmtTime(r.finished_at)}</td><td>${r.status}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p class="muted">No runs yet.</p>`
}
<p class="muted">Data: <a href="/api/v1/status">/api/v1/status</a> · <a href="/api/v1/stats">/api/v1/stats</a> · <a href="/healthz">/healthz</a></p>`;
  return renderLayout({ title: 'Status', nav: 'status', body }, meta);
}
