import { html, link, type Html } from '../html.ts';
import { fmtPrice, fmtTime } from '../format.ts';
import type { ServiceDetailFile } from '../model.ts';
import type { DeclaredSource, DimensionValue, TermsDimension } from '../../contract/declared-terms.ts';

/**
 * Declared against observed payment terms (rule declared-terms/1): per source, what it declares
 * beside what the live 402 asks, each with its source and dates, then the dated differences. A
 * measurement of agreement, never a rating. Receiving addresses are compared, never shown.
 */
const KIND: Record<DeclaredSource['kind'], string> = {
  catalog: 'catalog',
  well_known: 'seller document (/.well-known/x402)',
  listing: 'our listing',
};
const DIM: Record<TermsDimension, string> = {
  price: 'price (exact)',
  max_price: 'maximum (upto, batch-settlement)',
  network: 'networks',
  asset: 'tokens',
  scheme: 'schemes',
  pay_to: 'receiving address',
};

const list = (v: readonly string[] | null): Html =>
  v === null ? html`<span class="muted">not stated</span>` : html`<code>${v.join(', ')}</code>`;
const value = (dim: TermsDimension, v: DimensionValue): Html =>
  dim === 'pay_to'
    ? html`<span class="muted">not published</span>`
    : v === null
      ? html`<span class="muted">not stated</span>`
      : typeof v === 'number'
        ? html`${fmtPrice(v)}`
        : html`<code>${v.join(', ')}</code>`;

function observedRow(d: Pick<ServiceDetailFile, 'current_terms'>, dim: TermsDimension): Html {
  const c = d.current_terms;
  if (!c) return html`<span class="muted">none observed</span>`;
  switch (dim) {
    case 'price':
      return html`${fmtPrice(c.min_price_usd)}`;
    case 'max_price':
      return html`${fmtPrice(c.max_price_usd)}`;
    case 'network':
      return list(c.networks);
    case 'asset':
      return list([...new Set(c.offers.map((o) => `${o.network}|${o.asset}`))].sort());
    case 'scheme':
      return list([...new Set(c.offers.map((o) => o.scheme))].sort());
    default:
      return html`<span class="muted">compared, not published</span>`;
  }
}

function declaredRow(s: DeclaredSource, dim: TermsDimension): Html {
  switch (dim) {
    case 'price':
      return s.price_usd === null ? html`<span class="muted">not stated</span>` : html`${fmtPrice(s.price_usd)}`;
    case 'max_price':
      return s.max_price_usd === null ? html`<span class="muted">not stated</span>` : html`${fmtPrice(s.max_price_usd)}`;
    case 'network':
      return list(s.networks);
    case 'asset':
      return list(s.assets);
    case 'scheme':
      return list(s.schemes);
    default:
      return s.states_pay_to ? html`<span class="muted">stated (not published)</span>` : html`<span class="muted">not stated</span>`;
  }
}

function sourceTable(d: Pick<ServiceDetailFile, 'current_terms'>, s: DeclaredSource): Html {
  const dims = Object.keys(DIM) as TermsDimension[];
  const checked = s.checked
    ? html` Claims checked: ${Object.entries(s.checked).map(([k, c]) => html`${k} on ${c.checked_at} against ${link(c.source_url)}; `)}`
    : html``;
  return html`<h3>${KIND[s.kind]} <code>${s.name}</code></h3>
<p class="muted">Declared since ${fmtTime(s.declared_since)}, last read ${fmtTime(s.read_at)}; live 402 observed ${s.observed_at ? fmtTime(s.observed_at) : 'never'}.${checked}</p>
<div class="table-scroll"><table><thead><tr><th scope="col">Term</th><th scope="col">Declared</th><th scope="col">Live 402</th><th scope="col">Differs</th></tr></thead>
<tbody>${dims.map(
    (dim) =>
      html`<tr><td>${DIM[dim]}</td><td>${declaredRow(s, dim)}</td><td>${observedRow(d, dim)}</td><td>${s.differing.includes(dim) ? 'yes' : s.compared ? 'no' : '—'}</td></tr>`,
  )}</tbody></table></div>`;
}

export function renderDeclared(
  d: Pick<ServiceDetailFile, 'declared_terms' | 'declared_sources' | 'declared_differences' | 'current_terms'>,
): Html {
  if (d.declared_sources.length === 0 && d.declared_differences.length === 0) return html``;
  const st = d.declared_terms;
  return html`<section aria-labelledby="h-declared"><h2 id="h-declared">Declared against observed terms</h2>
<p>${
    st === null
      ? html`Nothing compared yet (no source states comparable terms, or no valid payment request observed).`
      : st.differs
        ? html`Differs now in ${st.dimensions.map((x) => DIM[x]).join(', ')}${st.since ? html`, since ${fmtTime(st.since)}` : html``} (rule ${st.rule}, ${st.sources_compared} source(s) compared).`
        : html`Agrees now (rule ${st.rule}, ${st.sources_compared} source(s) compared).`
  }</p>
${d.declared_sources.map((s) => sourceTable(d, s))}
<h3>Differences over time</h3>
${
  d.declared_differences.length
    ? html`<table><thead><tr><th scope="col">Began</th><th scope="col">Ended</th><th scope="col">Source</th><th scope="col">Term</th><th scope="col">Declared (read since)</th><th scope="col">Live (observed)</th></tr></thead>
<tbody>${d.declared_differences.map(
        (e) =>
          html`<tr><td>${fmtTime(e.began_at)}</td><td>${e.ended_at ? fmtTime(e.ended_at) : 'still differs'}</td><td>${KIND[e.source_kind]} <code>${e.source}</code></td><td>${DIM[e.dimension]}</td><td>${value(e.dimension, e.declared_value)} <span class="muted">(${fmtTime(e.declared_since)})</span></td><td>${value(e.dimension, e.observed_value)} <span class="muted">(${fmtTime(e.observed_at)})</span></td></tr>`,
      )}</tbody></table>`
    : html`<p class="muted">No difference found.</p>`
}
</section>`;
}
