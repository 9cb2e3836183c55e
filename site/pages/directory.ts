import { html, link, type Html } from './html.ts';
import { fmtInt, fmtPercent, fmtPrice, fmtTime, intervalLabel, TYPE_LABELS, typeLabel } from './format.ts';
import { renderLayout } from './layout.ts';
import type { PageMeta, ServiceList, ServiceSummary } from './model.ts';
import { latestBadge, serviceName, tierBadge } from './sections/service-name.ts';

/** The raw query of the directory page (what the GET form sends); values as typed by the user. */
export type DirectoryForm = Partial<Record<(typeof FORM_FIELDS)[number], string>>;

/** Parameters the form carries (a subset of the search parameters, docs/api.md); paging links keep them. */
export const FORM_FIELDS = [
  'q',
  'type',
  'tier',
  'network',
  'max_price_usd',
  'min_pass_rate',
  'passing',
  'terms_mismatch',
  'listed_but_failing',
  'passing_but_unlisted',
  'scope',
  'sort',
  'limit',
  'offset',
] as const;

/** Keep only the form's own, non-empty parameters (unknown names would be rejected by the API). */
export function formFromQuery(raw: Record<string, string | undefined>): DirectoryForm {
  const out: DirectoryForm = {};
  for (const k of FORM_FIELDS) {
    const v = raw[k];
    if (typeof v === 'string' && v !== '') out[k] = v;
  }
  return out;
}

export function queryString(form: DirectoryForm): string {
  const p = new URLSearchParams();
  for (const k of FORM_FIELDS) {
    const v = form[k];
    if (v !== undefined && v !== '') p.set(k, v);
  }
  const s = p.toString();
  return s ? `?${s}` : '';
}

function option(value: string, label: string, current: string | undefined): Html {
  return value === (current ?? '')
    ? html`<option value="${value}" selected>${label}</option>`
    : html`<option value="${value}">${label}</option>`;
}

function select(name: string, label: string, options: Array<[string, string]>, current: string | undefined): Html {
  return html`<label>${label}<select name="${name}" id="f-${name}">${options.map(([v, l]) => option(v, l, current))}</select></label>`;
}

/** A boolean filter as a three-way select: any (parameter left out), true, false. */
function yesNo(name: string, label: string, yes: string, no: string, current: string | undefined): Html {
  return select(
    name,
    label,
    [
      ['', 'Any'],
      ['true', yes],
      ['false', no],
    ],
    current,
  );
}

/** The search form: a plain GET form to `/` (works without JavaScript). */
export function renderSearchForm(form: DirectoryForm, live: boolean): Html {
  const scope = form.scope ?? 'directory';
  return html`<form class="search" method="get" action="/" role="search" aria-label="Search the directory">
<div class="q"><label for="f-q" class="sr-only">Search</label>
<input type="search" id="f-q" name="q" value="${form.q ?? ''}" maxlength="100" placeholder="Search names, hosts, URLs, operators">
<button type="submit">Search</button></div>
${select('type', 'Type', [['', 'Any type'], ...Object.entries(TYPE_LABELS)], form.type)}
${select(
  'tier',
  'Tier',
  [
    ['', 'Any tier'],
    ['reviewed', 'Reviewed'],
    ['discovered', 'Discovered'],
  ],
  form.tier,
)}
<label>Network<input type="text" name="network" id="f-network" value="${form.network ?? ''}" maxlength="100" placeholder="e.g. eip155:8453 or base"></label>
<label>Max price (USD)<input type="number" name="max_price_usd" id="f-max_price_usd" value="${form.max_price_usd ?? ''}" min="0" step="any" inputmode="decimal"></label>
${select(
  'min_pass_rate',
  'Min pass rate (30 d)',
  [
    ['', 'Any'],
    ['0.5', '50%'],
    ['0.8', '80%'],
    ['0.9', '90%'],
    ['0.95', '95%'],
    ['0.99', '99%'],
  ],
  form.min_pass_rate,
)}
${select(
  'passing',
  'Latest check',
  [
    ['', 'Any'],
    ['true', 'Passed'],
    ['false', 'Failed'],
  ],
  form.passing,
)}
${yesNo('terms_mismatch', 'Declared terms', 'Differ from the live 402', 'Match it', form.terms_mismatch)}
${yesNo('listed_but_failing', 'Listed by a catalog, failing', 'Yes', 'No', form.listed_but_failing)}
${yesNo('passing_but_unlisted', 'Passing, dropped by a catalog', 'Yes', 'No', form.passing_but_unlisted)}
${select(
  'sort',
  'Sort',
  [
    ['', 'Most evidence'],
    ['pass_rate', 'Pass rate'],
    ['payers', 'Registry payers'],
    ['price', 'Price'],
    ['recent', 'Recently checked'],
    ['name', 'Name'],
  ],
  form.sort,
)}
<fieldset><legend>Scope</legend>
<label><input type="radio" name="scope" value="directory"${scope === 'directory' ? html` checked` : html``}> Directory (meets the listing criteria)</label>
<label><input type="radio" name="scope" value="index"${scope === 'index' ? html` checked` : html``}> Everything tracked</label>
</fieldset>
${live ? html`` : html`<p class="muted full">This is a static copy: it shows the first page of the directory. Searching needs the Atlas server.</p>`}
</form>`;
}

function priceCell(s: ServiceSummary): Html {
  if (s.price_usd === null && s.max_price_usd === null) return html`<span class="muted">—</span>`;
  const src = s.price_source === 'operator' ? 'operator claim' : s.price_source === 'registry' ? 'from registry terms' : '';
  // A maximum (upto, batch-settlement) is never shown as the price: it is labelled as the most a call costs.
  const max =
    s.max_price_usd === null ? html`` : html`${s.price_usd === null ? '' : html`<br>`}up to ${fmtPrice(s.max_price_usd)} (maximum)`;
  return html`${s.price_usd === null ? '' : fmtPrice(s.price_usd)}${max}${src ? html`<br><span class="muted small">${src}</span>` : html``}`;
}

export function renderServiceRow(s: ServiceSummary): Html {
  const e = s.evidence;
  const page = s.links.page || `/services/${s.id}`;
  return html`<tr>
<td><a href="${page}">${serviceName(s)}</a> ${tierBadge(s.tier)}<br><code>${s.method} ${s.host}</code></td>
<td>${typeLabel(s.type)}</td>
<td class="num">${fmtPercent(e.pass_rate)}<br><span class="muted small">${fmtInt(e.passed_30d)}/${fmtInt(e.checks_30d)} checks${e.missed_30d ? html`, ${fmtInt(e.missed_30d)} missed` : html``}</span></td>
<td>${latestBadge(s)}${e.last_check && !e.last_check.passed ? html` <code class="small">${e.last_check.reason}</code>` : html``}<br><span class="muted small">${e.last_check ? fmtTime(e.last_check.checked_at) : ''}</span></td>
<td class="opt">${intervalLabel(e.check_interval_hours)}</td>
<td class="num opt">${priceCell(s)}</td>
<td class="opt">${s.networks.length ? s.networks.map((n, i) => html`${i ? html`, ` : html``}<code>${n}</code>`) : html`<span class="muted">—</span>`}</td>
</tr>`;
}

function pager(list: ServiceList, form: DirectoryForm): Html {
  const { offset, limit } = list.query;
  const prevOffset = Math.max(0, offset - limit);
  const prev: DirectoryForm | null = offset > 0 ? { ...form, offset: prevOffset ? String(prevOffset) : undefined } : null;
  const next: DirectoryForm | null = offset + limit < list.total ? { ...form, offset: String(offset + limit) } : null;
  if (!prev && !next) return html``;
  return html`<nav class="pager" aria-label="Result pages">
${prev ? html`<a href="/${queryString(prev)}" rel="prev">← Previous</a>` : html``}
<span class="muted">${fmtInt(offset + 1)}–${fmtInt(Math.min(offset + limit, list.total))} of ${fmtInt(list.total)}</span>
${next ? html`<a href="/${queryString(next)}" rel="next">Next →</a>` : html``}
</nav>`;
}

export interface DirectoryPageInput {
  list: ServiceList;
  form: DirectoryForm;
  /** An error message for a rejected parameter (400 from the search): shown above the form. */
  error?: string;
}

/** The directory page: the form, the result count, the result table and paging. */
export function renderDirectoryPage(input: DirectoryPageInput, meta: PageMeta): string {
  const { list, form } = input;
  const scope = list.query.scope;
  const body = html`<h1>Directory</h1>
<p class="lede">Paid x402 API endpoints, remote MCP servers and task marketplaces, with checks Atlas ran itself.
${scope === 'directory' ? 'Showing services that meet every listing criterion that applies to them (listing-criteria/1). Being in the directory is not a rating.' : 'Showing everything Atlas tracks, in the directory or not.'}</p>
${input.error ? html`<p class="notice hint" role="alert">${input.error}</p>` : html``}
${renderSearchForm(form, meta.live)}
<p id="result-count" aria-live="polite"><strong>${fmtInt(list.total)}</strong> ${list.total === 1 ? 'service' : 'services'} ${scope === 'directory' ? 'in the directory' : 'tracked'}${form.q ? html` matching “${form.q}”` : html``}.</p>
${list.hint ? html`<p class="notice hint">${list.hint} ${scope === 'directory' ? html`<a href="/${queryString({ ...form, scope: 'index', offset: undefined } as DirectoryForm)}">Search everything tracked</a>.` : html``}</p>` : html``}
${
  list.items.length
    ? html`<div class="table-scroll"><table class="results">
<caption class="muted">Pass rate and counts over the last 30 days; missed checks did not run and are not failures.</caption>
<thead><tr><th scope="col">Service</th><th scope="col">Type</th><th scope="col" class="num">Pass rate (30 d)</th><th scope="col">Latest check</th><th scope="col" class="opt">Interval</th><th scope="col" class="num opt">Price / call</th><th scope="col" class="opt">Networks</th></tr></thead>
<tbody>${list.items.map(renderServiceRow)}</tbody></table></div>`
    : html``
}
${meta.live ? pager(list, form) : list.total > list.items.length ? html`<p class="muted">Showing ${fmtInt(list.items.length)} of ${fmtInt(list.total)}; the full list is at ${link('/api/v1/services', '/api/v1/services')}.</p>` : html``}`;
  return renderLayout({ title: 'Directory', nav: 'directory', body }, meta);
}
