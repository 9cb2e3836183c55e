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
const notStated = html`<span class="muted">not stated</span>`;
const price = (v: number | null): Html => (v === null ? notStated : html`${fmtPrice(v)}`);
type Current = NonNullable<ServiceDetailFile['current_terms']>;

/** Per dimension: the live 402's value (current_terms) and the source's declared value. */
const OBSERVED: Record<TermsDimension, (c: Current) => Html> = {
  price: (c) => html`${fmtPrice(c.min_price_usd)}`,
  max_price: (c) => html`${fmtPrice(c.max_price_usd)}`,
  network: (c) => list(c.networks),
  asset: (c) => list([...new Set(c.offers.map((o) => `${o.network}|${o.asset}`))].sort()),
  scheme: (c) => list([...new Set(c.offers.map((o) => o.scheme))].sort()),
  pay_to: () => html`<span class="muted">compared, not published</span>`,
};
const DECLARED: Record<TermsDimension, (s: DeclaredSource) => Html> = {
  price: (s) => price(s.price_usd),
  max_price: (s) => price(s.max_price_usd),
  network: (s) => list(s.networks),
  asset: (s) => list(s.assets),
  scheme: (s) => list(s.schemes),
  pay_to: (s) => (s.states_pay_to ? html`<span class="muted">stated (not published)</span>` : notStated),
};

/** An event's value: dollars, a list, or nothing; receiving addresses are never published (always null). */
const value = (v: DimensionValue): Html =>
  v === null ? html`<span class="muted">not published or not stated</span>` : typeof v === 'number' ? html`${fmtPrice(v)}` : list(v);

const observedRow = (d: Pick<ServiceDetailFile, 'current_terms'>, dim: TermsDimension): Html =>
  d.current_terms ? OBSERVED[dim](d.current_terms) : html`<span class="muted">none observed</span>`;
const declaredRow = (s: DeclaredSource, dim: TermsDimension): Html => DECLARED[dim](s);

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
          html`<tr><td>${fmtTime(e.began_at)}</td><td>${e.ended_at ? fmtTime(e.ended_at) : 'still differs'}</td><td>${KIND[e.source_kind]} <code>${e.source}</code></td><td>${DIM[e.dimension]}</td><td>${value(e.declared_value)} <span class="muted">(${fmtTime(e.declared_since)})</span></td><td>${value(e.observed_value)} <span class="muted">(${fmtTime(e.observed_at)})</span></td></tr>`,
      )}</tbody></table>`
    : html`<p class="muted">No difference found.</p>`
}
</section>`;
}
