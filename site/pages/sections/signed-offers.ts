import { html, type Html } from '../html.ts';
import type { ServiceDetail } from '../model.ts';
import { fmtTime } from '../format.ts';

/**
 * The signed offers (x402 offer-receipt extension) of the latest valid payment request: counts by
 * signature and signer state, the reasons, and whether signed terms differ from the unsigned ones.
 * Counts only, never a rate or a score. No section when no 402 of the service carried a signed offer
 * (or the file predates the field).
 */
export function renderSignedOffers(d: Partial<Pick<ServiceDetail, 'signed_offers'>>): Html {
  const s = d.signed_offers;
  if (!s) return html``;
  const row = (label: string, n: number, note = '') =>
    html`<tr><th scope="row">${label}</th><td class="num">${String(n)}</td><td class="muted">${note}</td></tr>`;
  return html`<section aria-labelledby="h-signed-offers"><h2 id="h-signed-offers">Signed offers</h2>
<p class="muted">The seller's signed commitments to its payment terms in its latest valid 402 (read ${fmtTime(s.checked_at)}), each verified offline by Atlas. The signer is compared with the payee key itself only; DID documents and DNS records that could also authorise a key are not checked.</p>
<table><thead><tr><th scope="col">Offers</th><th scope="col">Count</th><th scope="col">Meaning</th></tr></thead><tbody>
${row('signed', s.signed)}
${row('signature valid', s.valid)}
${row('signature invalid', s.invalid)}
${row('signature not checked', s.not_checked, 'e.g. a did:web key, which needs a fetch Atlas does not make')}
${row('signer is the payee key', s.authorised)}
${row('signer is not the payee key', s.not_authorised, 'other authorisation methods not checked')}
${row('signer not checked', s.signer_not_checked)}
${row('signed terms differ from the unsigned offer', s.terms_differ, s.differing_fields.join(', '))}
</tbody></table>
${s.reasons.length ? html`<p>Reasons: ${s.reasons.map((r, i) => html`${i ? ', ' : ''}<code>${r.reason}</code> (${String(r.offers)})`)}</p>` : html``}
${s.last_terms_differ_at ? html`<p>Signed terms last started to differ from the unsigned offer: ${fmtTime(s.last_terms_differ_at)}.</p>` : html``}
</section>`;
}
