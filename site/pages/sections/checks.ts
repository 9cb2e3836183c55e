import { html, link, type Html } from '../html.ts';
import { fmtMs, fmtTime, intervalLabel } from '../format.ts';
import type { ServiceDetail } from '../model.ts';

/** The monitored operations: what is checked, how often, under which pass rule. */
export function renderOperations(d: Pick<ServiceDetail, 'operations'>): Html {
  if (!d.operations.length) return html``;
  return html`<section aria-labelledby="h-ops"><h2 id="h-ops">What Atlas checks</h2>
<div class="table-scroll"><table><thead><tr><th scope="col">Operation</th><th scope="col">Request</th><th scope="col">Interval</th><th scope="col">Pass rule</th><th scope="col">Expected status</th></tr></thead>
<tbody>${d.operations.map(
    (
      o,
    ) => html`<tr><td>${o.id}${o.is_primary ? html` <span class="badge">primary</span>` : html``}${o.enabled ? html`` : html` <span class="badge">disabled</span>`}<br><span class="muted">${o.kind}</span></td>
<td><code>${o.method}</code> ${link(o.url, html`<code>${o.url}</code>`)}</td><td>${intervalLabel(o.check_interval_hours)}</td><td><code>${o.pass_rule}</code></td>
<td>${o.expected_statuses ? o.expected_statuses.join(', ') : html`<span class="muted">by rule</span>`}</td></tr>`,
  )}</tbody></table></div></section>`;
}

/** The latest raw checks (newest first), as published (RECENT_CHECKS of them). */
export function renderRecentChecks(d: Pick<ServiceDetail, 'recent_checks'>): Html {
  return html`<section aria-labelledby="h-recent"><h2 id="h-recent">Recent checks</h2>
${
  d.recent_checks.length
    ? html`<details${d.recent_checks.length <= 12 ? html` open` : html``}><summary>${d.recent_checks.length} most recent checks</summary>
<div class="table-scroll"><table><thead><tr><th scope="col">Checked</th><th scope="col">Operation</th><th scope="col">Result</th><th scope="col" class="num">HTTP</th><th scope="col">Reason</th><th scope="col" class="num">Latency</th></tr></thead>
<tbody>${d.recent_checks.map(
        (c) =>
          html`<tr><td>${fmtTime(c.checked_at)}</td><td>${c.operation}</td><td>${c.passed ? html`<span class="yes">passed</span>` : html`<span class="no">failed</span>`}</td><td class="num">${c.status ?? '—'}</td><td><code>${c.reason}</code></td><td class="num">${fmtMs(c.latency_ms)}</td></tr>`,
      )}</tbody></table></div></details>`
    : html`<p class="muted">No check has run yet.</p>`
}
</section>`;
}
