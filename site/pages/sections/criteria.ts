import { html, type Html } from '../html.ts';
import { fmtTime } from '../format.ts';
import type { CriterionResult, ServiceDetailFile } from '../model.ts';

/** A criterion's value or threshold for people: numbers rounded, objects as `key: value` pairs. */
export function showValue(v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(Number(v.toFixed(4)));
  if (Array.isArray(v)) return v.length ? v.map(showValue).join(', ') : '—';
  if (typeof v === 'object') {
    const parts = Object.entries(v as Record<string, unknown>).map(([k, x]) => `${k.replace(/_/g, ' ')}: ${showValue(x)}`);
    return parts.length ? parts.join('; ') : '—';
  }
  return String(v);
}

function verdict(c: CriterionResult): Html {
  if (!c.applies) return html`<span class="muted">does not apply</span>`;
  if (c.passed === true) return html`<span class="yes">✓ met</span>`;
  if (c.passed === false) return html`<span class="no">✗ not met</span>`;
  return html`<span class="muted">unknown</span>`;
}

/**
 * When membership was last evaluated. A published file names only a changed-scope instant (the
 * service's own); when its latest evaluation was the hourly one of every service (`scope` full) the
 * instant is the generation's (site/contract/directory-evaluated.ts), and a static page must not
 * carry it, or every page would change every hour: it says so in words. An answer the server
 * completed (no `scope`) shows its time.
 */
function evaluatedWhen(dir: ServiceDetailFile['directory']): Html {
  if (dir.evaluated_at) return html`, evaluated ${fmtTime(dir.evaluated_at)}`;
  if (dir.scope === 'full') return html`, evaluated at the latest hourly evaluation of every service`;
  return html``;
}

/** Why the service is or is not in the directory: each criterion of the rule with value and threshold. */
export function renderCriteria(d: Pick<ServiceDetailFile, 'in_directory' | 'directory'>): Html {
  const dir = d.directory;
  const failed = dir.criteria.filter((c) => c.applies && c.passed === false);
  const lead = d.in_directory
    ? html`<p><span class="badge in">In the directory</span> It meets every listing criterion that applies to it.</p>`
    : html`<p><span class="badge out">Not in the directory</span> ${failed.length ? html`Not met: ${failed.map((c, i) => html`${i ? ', ' : ''}${c.description}`)}.` : html`It has not been evaluated yet.`}</p>`;
  return html`<section aria-labelledby="h-criteria"><h2 id="h-criteria">Why it is ${d.in_directory ? '' : 'not '}in the directory</h2>
${lead}
<div class="table-scroll"><table><caption class="muted">Rule ${dir.rule}${evaluatedWhen(dir)}. Being in the directory is not a rating.</caption>
<thead><tr><th scope="col">Criterion</th><th scope="col" class="num">Value</th><th scope="col" class="num">Threshold</th><th scope="col">Result</th></tr></thead>
<tbody>${dir.criteria.map(
    (c) =>
      html`<tr><td>${c.description} <code class="muted">${c.id}</code></td><td class="num">${showValue(c.value)}</td><td class="num">${showValue(c.threshold)}</td><td>${verdict(c)}</td></tr>`,
  )}</tbody></table></div></section>`;
}
