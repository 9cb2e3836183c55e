import { DEFAULT_BASE_URL } from '../../contract/common.ts';
import { badgeSnippets } from '../../discovery/badge.ts';
import { html, type Html } from '../html.ts';
import type { PageMeta, ServiceDetail } from '../model.ts';

/**
 * The service's badge and the snippets to embed it (Markdown and HTML, absolute URLs from the
 * instance's base URL). The live page loads the badge from its own origin (the page's CSP allows
 * only 'self'); a static page loads it from the base URL, as an embed would.
 */
export function renderBadgeEmbed(d: Pick<ServiceDetail, 'id'>, meta: PageMeta): Html {
  const s = badgeSnippets({ baseUrl: meta.baseUrl ?? DEFAULT_BASE_URL, id: d.id });
  const src = meta.live ? `/badges/${encodeURIComponent(d.id)}.svg` : s.url;
  return html`<section aria-labelledby="badge-h"><h2 id="badge-h">Badge</h2>
<p><img class="atlas-badge" src="${src}" alt="Atlas badge: 30-day check figures of ${d.id}"></p>
<p class="muted">Embed it where the service is described; it states the checks of the last 30 days and how many passed, as Atlas measures them now, in one colour whatever the figures.</p>
<dl class="facts">
<dt>Markdown</dt><dd><code>${s.markdown}</code></dd>
<dt>HTML</dt><dd><code>${s.html}</code></dd>
</dl>
</section>`;
}
