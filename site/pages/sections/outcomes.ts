import { html, type Html } from '../html.ts';
import type { ServiceDetail } from '../model.ts';
import { OUTCOMES } from '../../contract/common.ts';
import { MODERATION_STATES } from '../../contract/moderation.ts';

/**
 * Outcome reports about the service, per reported outcome and moderation state (docs/notes/moderation.md):
 * counts only, never a rate or a score. A detail file from before moderation has no counts: no section.
 */
export function renderOutcomeReports(d: Partial<Pick<ServiceDetail, 'outcome_reports'>>): Html {
  const counts = d.outcome_reports;
  if (!counts) return html``;
  return html`<section aria-labelledby="h-outcomes"><h2 id="h-outcomes">Outcome reports from agents</h2>
<p class="muted">Unverified reports sent by agents with a key, moderated before they are counted as accepted. They are not part of the evidence above and are never turned into a rate or a score.</p>
<table><thead><tr><th scope="col">Reported outcome</th>${MODERATION_STATES.map((s) => html`<th scope="col">${s}</th>`)}</tr></thead>
<tbody>${OUTCOMES.map((o) => html`<tr><th scope="row">${o}</th>${MODERATION_STATES.map((s) => html`<td>${String(counts[o][s])}</td>`)}</tr>`)}</tbody></table>
</section>`;
}
