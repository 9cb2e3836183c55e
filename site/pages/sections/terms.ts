import { html, type Html } from '../html.ts';
import { fmtInt, fmtPrice, fmtTime } from '../format.ts';
import type { ServiceDetailFile } from '../model.ts';
import type { TermsOffer } from '../../contract/payment-terms.ts';

/** What an offer's amount is, by its price kind (site/contract TermsOffer.price_kind). */
const AMOUNT_IS: Record<NonNullable<TermsOffer['price_kind']>, string> = { exact: 'the charge', maximum: 'a maximum' };

/**
 * Payment terms (docs/api.md, PaymentTerms): the summary, the latest valid request's offers and the history of
 * changes. Receiving addresses are never shown (only whether they changed). The window start is shown
 * only while tracking is under 90 days (`limited`): then it is the first observation, which a
 * published file carries and which never moves; afterwards it moves at every compute
 * (site/contract/terms-window.ts), and a static page must not depend on it.
 */
export function renderTerms(d: Pick<ServiceDetailFile, 'payment_terms' | 'current_terms' | 'terms_changes' | 'type'>): Html {
  const t = d.payment_terms;
  const cur = d.current_terms;
  if (!t && !cur && d.terms_changes.length === 0) {
    return d.type === 'api_endpoint'
      ? html`<section aria-labelledby="h-terms"><h2 id="h-terms">Payment terms</h2><p class="muted">No valid x402 payment request observed yet.</p></section>`
      : html``;
  }
  return html`<section aria-labelledby="h-terms"><h2 id="h-terms">Payment terms</h2>
${
  t
    ? html`<dl class="facts">
<dt>Current terms since</dt><dd>${fmtTime(t.current_since)}</dd>
<dt>Changes (30 d / 90 d)</dt><dd>${fmtInt(t.changes_30d)} / ${fmtInt(t.changes_90d)}${t.limited && t.window_start ? html` <span class="muted">(tracked under 90 days, since ${fmtTime(t.window_start)})</span>` : html``}</dd>
<dt>Receiving-address changes (90 d)</dt><dd>${fmtInt(t.pay_to_changes_90d)} <span class="muted">(addresses are compared, never published)</span></dd>
<dt>Last change</dt><dd>${t.last_change_at ? html`${fmtTime(t.last_change_at)} (${t.last_change_kinds.join(', ')})` : html`none`}</dd>
</dl>`
    : html``
}
${
  cur
    ? html`<h3>Latest payment request</h3><p class="muted">Observed ${fmtTime(cur.observed_at)}, x402 version ${cur.x402_version}; lowest exact USD price ${fmtPrice(cur.min_price_usd)}${cur.max_price_usd !== null ? html`, lowest stated maximum ${fmtPrice(cur.max_price_usd)}` : html``} (not a measured charge).</p>
<div class="table-scroll"><table><thead><tr><th scope="col">Scheme</th><th scope="col">Network</th><th scope="col">Asset</th><th scope="col" class="num">Amount (atomic units)</th><th scope="col">Amount is</th><th scope="col" class="num">Timeout</th></tr></thead>
<tbody>${cur.offers.map(
        (o) =>
          html`<tr><td>${o.scheme}</td><td><code>${o.network}</code></td><td><code>${o.asset}</code>${o.currency ? html` <span class="muted">${o.currency}</span>` : html``}</td><td class="num">${o.amount}</td><td>${o.price_kind === null ? 'not priced (unknown scheme)' : AMOUNT_IS[o.price_kind]}</td><td class="num">${o.max_timeout_seconds === null ? '—' : `${o.max_timeout_seconds} s`}</td></tr>`,
      )}</tbody></table></div>`
    : html``
}
<h3>Payment-term history</h3>
${
  d.terms_changes.length
    ? html`<table><thead><tr><th scope="col">Changed</th><th scope="col">What changed</th></tr></thead>
<tbody>${d.terms_changes.map((c) => html`<tr><td>${fmtTime(c.changed_at)}</td><td>${c.kinds.join(', ')}</td></tr>`)}</tbody></table>`
    : html`<p class="muted">No change observed.</p>`
}
</section>`;
}
