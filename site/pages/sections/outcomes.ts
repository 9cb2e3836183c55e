import { html, type Html } from '../html.ts';
import type { ServiceDetail } from '../model.ts';
import { OUTCOMES } from '../../contract/common.ts';
import { MODERATION_STATES } from '../../contract/moderation.ts';
import { RECEIPT_STATES, type OutcomeReportCounts } from '../../contract/index.ts';

/** What each receipt state means, as the page says it (site/contract/outcome-receipt.ts). */
const RECEIPT_HEADINGS: Record<(typeof RECEIPT_STATES)[number], string> = {
  verified: 'Backed by a verified receipt',
  not_verified: 'With a receipt that did not verify',
  no_receipt: 'Without a receipt',
};

function countsTable(counts: OutcomeReportCounts, caption: string): Html {
  return html`<table><caption>${caption}</caption><thead><tr><th scope="col">Reported outcome</th>${MODERATION_STATES.map((s) => html`<th scope="col">${s}</th>`)}</tr></thead>
<tbody>${OUTCOMES.map((o) => html`<tr><th scope="row">${o}</th>${MODERATION_STATES.map((s) => html`<td>${String(counts[o][s])}</td>`)}</tr>`)}</tbody></table>`;
}

/**
 * Outcome reports about the service, per reported outcome and moderation state (docs/notes/moderation.md),
 * kept apart by receipt state (docs/notes/outcome-receipts.md): counts only, never a rate or a score.
 * A detail file from before moderation has no counts: no section; one from before receipts: the
 * totals only.
 */
export function renderOutcomeReports(d: Partial<Pick<ServiceDetail, 'outcome_reports' | 'outcome_reports_by_receipt'>>): Html {
  const counts = d.outcome_reports;
  if (!counts) return html``;
  const byReceipt = d.outcome_reports_by_receipt;
  return html`<section aria-labelledby="h-outcomes"><h2 id="h-outcomes">Outcome reports from agents</h2>
<p class="muted">Reports sent by agents with a key, moderated before they are counted as accepted. They are not part of the evidence above and are never turned into a rate or a score.</p>
${
  byReceipt
    ? html`<p class="muted">A report backed by a verified receipt carried the seller's signed x402 receipt, and Atlas checked that the signature is valid, that the signing key holds a receiving address Atlas observed in this service's 402 answers, that the receipt names this service, and that it was issued around the time of the report. That shows a payment was answered with a receipt; it does not show that the answer was good, nor who the reporter is. Other reports are claims.</p>
${RECEIPT_STATES.map((s) => countsTable(byReceipt[s], RECEIPT_HEADINGS[s]))}`
    : countsTable(counts, 'All reports')
}
</section>`;
}
