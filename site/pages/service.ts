import { html, link, thirdParty } from './html.ts';
import { fmtPrice, typeLabel } from './format.ts';
import { renderLayout } from './layout.ts';
import type { PageMeta, ServicePageData } from './model.ts';
import { renderBadgeEmbed } from './sections/badge.ts';
import { renderCatalogHistory } from './sections/catalogs.ts';
import { renderClaims, renderRegistry } from './sections/claims.ts';
import { renderCriteria } from './sections/criteria.ts';
import { renderCharts, renderEvidence } from './sections/evidence.ts';
import { renderIntervalHistory } from './sections/intervals.ts';
import { renderOperations, renderRecentChecks } from './sections/checks.ts';
import { renderOutcomeReports } from './sections/outcomes.ts';
import { renderSignedOffers } from './sections/signed-offers.ts';
import { latestBadge, serviceName, tierBadge } from './sections/service-name.ts';
import { renderTerms } from './sections/terms.ts';
import { renderDeclared } from './sections/declared.ts';

/** One service's page (`links.page`): identity, membership and why, evidence, charts, terms, history, claims, registry text. */
export function renderServicePage(d: ServicePageData, meta: PageMeta): string {
  const api = d.links.api || `/api/v1/services/${d.id}`;
  const body = html`<nav aria-label="Breadcrumb" class="muted"><a href="/">Directory</a> › <span>${d.id}</span></nav>
<h1>${serviceName(d)}${d.name_source === 'registry' ? html`<span class="tp-label">name from registry</span>` : html``}</h1>
<p class="lede">${tierBadge(d.tier)} ${typeLabel(d.type)} · ${d.in_directory ? html`<span class="badge in">in the directory</span>` : html`<span class="badge out">not in the directory</span>`} · latest check ${latestBadge(d)}</p>
${d.description ? html`<p class="description">${d.tier === 'discovered' ? html`${thirdParty(d.description)}<span class="tp-label">from the registry</span>` : d.description}</p>` : html``}
<dl class="facts">
<dt>Checked endpoint</dt><dd><code>${d.method}</code> ${link(d.url, html`<code>${d.url}</code>`)}${d.templated_url ? html` <span class="badge">templated URL</span>` : html``}</dd>
<dt>Host</dt><dd><code>${d.host}</code> <span class="muted">(${d.provider_endpoints} tracked endpoint${d.provider_endpoints === 1 ? '' : 's'} on this host; not a verified identity)</span></dd>
${d.operator ? html`<dt>Operator</dt><dd>${d.tier === 'discovered' ? thirdParty(d.operator) : d.operator}</dd>` : html``}
${d.category ? html`<dt>Category</dt><dd>${d.category}</dd>` : html``}
${d.tags.length ? html`<dt>Tags</dt><dd>${d.tags.map((t, i) => html`${i ? ' ' : ''}<span class="badge">${t}</span>`)}${d.tier === 'discovered' ? html` <span class="muted">(from the registry, not reviewed)</span>` : html``}</dd>` : html``}
<dt>Price per call</dt><dd>${fmtPrice(d.price_usd)}${d.max_price_usd !== null ? html`; at most ${fmtPrice(d.max_price_usd)} under a maximum scheme (upto, batch-settlement: the charge is settled at or below it)` : html``}${d.price_source ? html` <span class="muted">(${d.price_source === 'operator' ? "operator's stated price, a claim" : 'lowest amounts in the registry terms'}; not a measured charge)</span>` : html``}</dd>
<dt>Networks</dt><dd>${d.networks.length ? d.networks.map((n, i) => html`${i ? ', ' : ''}<code>${n}</code>`) : '—'} ${d.networks.length ? html`<span class="muted">(${d.networks_source})</span>` : html``}${d.mainnet === false ? html` <span class="badge">test networks only</span>` : html``}</dd>
<dt>Data</dt><dd>${link(api, 'JSON for this service')}</dd>
</dl>
${renderEvidence(d)}
${renderCharts(d)}
${renderCriteria(d)}
${renderOperations(d)}
${renderRecentChecks(d)}
${renderTerms(d)}
${renderDeclared(d)}
${renderSignedOffers(d)}
${renderIntervalHistory(d)}
${renderCatalogHistory(d)}
${renderOutcomeReports(d)}
${renderClaims(d)}
${renderRegistry(d)}
${renderBadgeEmbed(d, meta)}`;
  return renderLayout({ title: d.name, nav: 'service', body, description: `Evidence Atlas measured for ${d.host}` }, meta);
}
