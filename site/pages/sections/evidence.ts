import { html, raw as rawSvg, type Html } from '../html.ts';
import { fmtDays, fmtInt, fmtMs, fmtPercent, fmtTime, intervalLabel } from '../format.ts';
import type { EvidenceFile, ServiceDetail } from '../model.ts';
import { checkHistorySvg } from '../charts/history.ts';
import { latencySvg } from '../charts/latency.ts';

/**
 * The 30-day evidence figures (docs/api.md, Evidence) as a definition list. `monitoring_days` is
 * shown when the evidence carries it (pages the server renders, at its answer); a static page is
 * rendered from the published file, which has only `monitoring_since` (the days would go stale on a
 * static host: site/contract/monitoring.ts), so it shows the date alone.
 */
export function renderEvidence(d: { evidence: EvidenceFile & { monitoring_days?: number } }): Html {
  const e = d.evidence;
  const lc = e.last_check;
  return html`<section aria-labelledby="h-evidence"><h2 id="h-evidence">Evidence (last 30 days)</h2>
<dl class="facts">
<dt>Checks that ran</dt><dd>${fmtInt(e.checks_30d)} (${fmtInt(e.passed_30d)} passed)</dd>
<dt>Pass rate</dt><dd>${fmtPercent(e.pass_rate)}</dd>
<dt>Missed checks</dt><dd>${fmtInt(e.missed_30d)} <span class="muted">(did not run; never counted as failures)</span></dd>
<dt>Freshness</dt><dd>${e.freshness.replace('_', ' ')}</dd>
<dt>Check interval</dt><dd>${intervalLabel(e.check_interval_hours)} <span class="muted">(rule ${e.check_interval_rule})</span></dd>
<dt>Operations monitored</dt><dd>${fmtInt(e.operations)}</dd>
<dt>Monitoring since</dt><dd>${fmtTime(e.monitoring_since)}${e.monitoring_days === undefined ? html`` : html` (${fmtDays(e.monitoring_days)})`}${e.limited_evidence ? html` <span class="badge stale">limited evidence: under 30 days</span>` : html``}</dd>
<dt>Latest check</dt><dd>${
    lc
      ? html`${lc.passed ? html`<span class="yes">passed</span>` : html`<span class="no">failed</span>`} ${fmtTime(lc.checked_at)} · ${lc.operation} · HTTP ${lc.status ?? 'none'} · <code>${lc.reason}</code> · ${fmtMs(lc.latency_ms)} · rule ${lc.rule}${lc.protocols?.length ? html` · payment protocols ${lc.protocols.join(', ')}` : html``}${lc.auth_schemes ? html` · auth ${lc.auth_schemes.length ? lc.auth_schemes.join(', ') : 'no scheme named'}` : html``}`
      : html`none yet`
  }</dd>
</dl></section>`;
}

/**
 * The two charts, drawn from the daily series published with the service (pure SVG strings). The
 * caption names the days: a static page shared by later generations keeps the series of the day it
 * was rendered (site/contract/daily-series.ts).
 */
export function renderCharts(d: Pick<ServiceDetail, 'daily_checks'>): Html {
  const days = d.daily_checks;
  const span = days.length ? html`${days[0]!.day} to ${days.at(-1)!.day}` : html`no days`;
  return html`<section aria-labelledby="h-charts"><h2 id="h-charts" class="sr-only">Check history charts</h2>
<div class="charts">
<figure id="chart-history">${rawSvg(checkHistorySvg(days, { id: 'svg-history' }))}
<figcaption>Checks per UTC day, ${span}, all operations. <span class="legend"><span class="l-pass">passed</span><span class="l-fail">failed</span><span class="l-none">no check</span></span></figcaption></figure>
<figure id="chart-latency">${rawSvg(latencySvg(days, { id: 'svg-latency' }))}
<figcaption>Median latency per UTC day, ${span} (time to the end of the response).</figcaption></figure>
</div></section>`;
}
