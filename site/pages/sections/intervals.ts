import { html, type Html } from '../html.ts';
import { fmtTime, intervalLabel } from '../format.ts';
import type { ServiceDetail } from '../model.ts';
import type { ScheduleReason } from '../../contract/common.ts';

/** Label of each schedule reason (the contract's SCHEDULE_REASONS). */
const REASONS: Record<ScheduleReason, string> = {
  reviewed_fixed: 'reviewed services are checked hourly',
  new_until_third_probe: 'new: daily until the third probe',
  payers_100_plus: '100 or more registry payers in 30 days',
  payers_5_to_99: '5 to 99 registry payers in 30 days',
  payers_under_5: 'fewer than 5 registry payers',
  all_failed_14d: 'every probe failed for 14 days',
  unlisted_7d: 'not listed by the registry for 7 days',
};

/** Every recorded change of a check interval (rule schedule/1), oldest first as published. */
export function renderIntervalHistory(d: Pick<ServiceDetail, 'interval_history'>): Html {
  return html`<section aria-labelledby="h-intervals"><h2 id="h-intervals">Check interval history</h2>
${
  d.interval_history.length
    ? html`<table><thead><tr><th scope="col">Changed</th><th scope="col">Operation</th><th scope="col">From</th><th scope="col">To</th><th scope="col">Why</th></tr></thead>
<tbody>${d.interval_history.map(
        (c) =>
          html`<tr><td>${fmtTime(c.changed_at)}</td><td>${c.operation}</td><td>${c.from_hours === null ? '—' : intervalLabel(c.from_hours)}</td><td>${intervalLabel(c.to_hours)}</td><td>${REASONS[c.reason as ScheduleReason] ?? c.reason} <span class="muted">(${c.rule})</span></td></tr>`,
      )}</tbody></table>`
    : html`<p class="muted">No interval recorded.</p>`
}
</section>`;
}
