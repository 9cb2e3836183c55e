import type { ServiceDetail } from '../../contract/service-detail.ts';
import { fmtTime } from '../format.ts';
import { type Html, html } from '../html.ts';

/** Why an interval ended, in words (ServiceDetail.catalog_history[].unlisted_reason). */
const UNLISTED: Record<string, string> = {
  missing_from_sweep: 'a complete sweep no longer listed it',
  deleted_status: 'the registry marked it deleted',
  deprecated_status: 'the registry marked it deprecated',
  not_recorded: 'dropped before Atlas kept this history (cause not recorded)',
};

const yesNo = (v: boolean | null): string => (v === null ? 'not known (never checked)' : v ? 'yes' : 'no');

/**
 * Catalog presence over time (discovered services): listed but failing / passing but unlisted as
 * published (view catalog_standing), then every listed/unlisted interval in every catalog.
 */
export function renderCatalogHistory(d: Pick<ServiceDetail, 'registry_listing' | 'catalog_history'>): Html {
  const l = d.registry_listing;
  if (!l) return html``;
  return html`<section aria-labelledby="h-catalogs"><h2 id="h-catalogs">Catalog presence</h2>
<p class="muted">When each catalog Atlas reads listed and unlisted this service, from Atlas's own sweeps; compared with Atlas's latest check of its primary operation at the last compute.</p>
<dl class="facts">
<dt>Listed but failing</dt><dd>${yesNo(l.listed_but_failing)} <span class="muted">(a catalog lists it and the latest check failed)</span></dd>
<dt>Passing but unlisted</dt><dd>${yesNo(l.passing_but_unlisted)} <span class="muted">(the latest check passed and a catalog that listed it dropped it)</span></dd>
</dl>
${
  d.catalog_history.length
    ? html`<table><thead><tr><th scope="col">Catalog</th><th scope="col">Listed</th><th scope="col">Unlisted</th><th scope="col">Why</th></tr></thead>
<tbody>${d.catalog_history.map(
        (c) =>
          html`<tr><td><code>${c.kind}:${c.name}</code></td><td>${fmtTime(c.listed_at)}</td><td>${c.unlisted_at === null ? html`<span class="muted">still listed</span>` : fmtTime(c.unlisted_at)}</td><td>${c.unlisted_reason === null ? '—' : (UNLISTED[c.unlisted_reason] ?? c.unlisted_reason)}</td></tr>`,
      )}</tbody></table>`
    : html`<p class="muted">No catalog listing recorded.</p>`
}
</section>`;
}
