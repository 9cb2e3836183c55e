import { html, link, thirdParty, type Html } from '../html.ts';
import { fmtInt, fmtTime } from '../format.ts';
import type { ServiceDetail } from '../model.ts';

/** Claims are statements Atlas did not measure: each with who made it, where it is written and the day Atlas checked it. */
export function renderClaims(d: Pick<ServiceDetail, 'claims'>): Html {
  return html`<section aria-labelledby="h-claims"><h2 id="h-claims">Claims and their sources</h2>
<p class="muted">Stated by the operator or a registry; not measured by Atlas.</p>
${
  d.claims.length
    ? html`<div class="table-scroll"><table><thead><tr><th scope="col">Topic</th><th scope="col">Statement</th><th scope="col">Source</th><th scope="col">Checked</th></tr></thead>
<tbody>${d.claims.map(
        (c) =>
          html`<tr><td>${c.topic}</td><td>${c.source === 'registry' ? thirdParty(c.statement) : c.statement}</td><td>${c.source}${c.source_url ? html`: ${link(c.source_url)}` : html``}</td><td>${c.checked_at ?? html`<span class="muted">not checked</span>`}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p class="muted">No claims recorded.</p>`
}
</section>`;
}

/** What the registry says: its text (third-party), its usage figures and its listing record. */
export function renderRegistry(d: Pick<ServiceDetail, 'registry_text' | 'registry_usage' | 'registry_listing'>): Html {
  const t = d.registry_text;
  const u = d.registry_usage;
  const l = d.registry_listing;
  if (!t && !u && !l) return html``;
  return html`<section aria-labelledby="h-registry"><h2 id="h-registry">From the registry <span class="tp-label">third-party</span></h2>
${
  t
    ? html`<p class="third-party-note">${t.notice}</p>
<dl class="facts">${t.registry ? html`<dt>Registry</dt><dd>${t.registry}</dd>` : html``}
${t.name ? html`<dt>Name given</dt><dd>${thirdParty(t.name)}</dd>` : html``}
<dt>Description</dt><dd>${t.description ? thirdParty(t.description) : html`<span class="muted">none</span>`}</dd></dl>`
    : html``
}
${
  u
    ? html`<h3>Usage reported by the registry</h3><p class="muted">Figures reported by ${u.registry ?? 'the registry'}, not measured by Atlas.</p>
<dl class="facts"><dt>Calls (30 d)</dt><dd>${fmtInt(u.calls_30d)}</dd><dt>Unique payers (30 d)</dt><dd>${fmtInt(u.payers_30d)}</dd><dt>Last call</dt><dd>${fmtTime(u.last_called_at)}</dd></dl>`
    : html``
}
${
  l
    ? html`<h3>Listing</h3><dl class="facts"><dt>Listed now</dt><dd>${l.listed ? 'yes' : html`<span class="no">no</span>${l.unlisted_at ? html` (since ${fmtTime(l.unlisted_at)})` : html``}`}</dd>
${l.status ? html`<dt>Registry status</dt><dd>${l.status}</dd>` : html``}
<dt>First seen</dt><dd>${fmtTime(l.first_seen_at)}</dd><dt>Last seen</dt><dd>${fmtTime(l.last_seen_at)}</dd>
<dt>Registry updated</dt><dd>${fmtTime(l.updated_at)}</dd>
${l.x402_version !== null ? html`<dt>x402 version</dt><dd>${l.x402_version}</dd>` : html``}
${l.remote_type ? html`<dt>Remote transport</dt><dd>${l.remote_type}</dd>` : html``}
${l.catalogs.map(
  (c) =>
    html`<dt>Catalog ${c.kind}:${c.name}</dt><dd>${c.until ? html`listed ${fmtTime(c.since)} – ${fmtTime(c.until)}` : html`listed since ${fmtTime(c.since)}`}</dd>`,
)}</dl>`
    : html``
}
</section>`;
}
