import { ASSET_PATHS } from './assets.ts';
import { html, type Html } from './html.ts';
import { fmtTime } from './format.ts';
import type { PageMeta } from './model.ts';

export type NavKey = 'directory' | 'status' | 'reports' | 'service';

export interface PageShell {
  title: string;
  nav: NavKey;
  /** Short description for <meta name="description">. */
  description?: string;
  body: Html;
}

const NAV: Array<{ key: NavKey; href: string; label: string }> = [
  { key: 'directory', href: '/', label: 'Directory' },
  { key: 'status', href: '/status', label: 'Status' },
  { key: 'reports', href: '/reports', label: 'Reports' },
];

/** The page frame every page shares: head, skip link, navigation, main, footer. Returns a full document. */
export function renderLayout(page: PageShell, meta: PageMeta): string {
  const doc = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title} · Atlas</title>
<meta name="description" content="${page.description ?? 'Atlas: a directory of paid x402 API endpoints, remote MCP servers and task marketplaces, with evidence Atlas measures itself.'}">
<link rel="stylesheet" href="${ASSET_PATHS.css}">
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="site"><div class="wrap">
<a class="brand" href="/">Atlas</a>
<nav aria-label="Main">${NAV.map((n) =>
    n.key === page.nav ? html`<a href="${n.href}" aria-current="page">${n.label}</a>` : html`<a href="${n.href}">${n.label}</a>`,
  )}<a href="/api/v1/services">API</a><a href="/openapi.json">OpenAPI</a></nav>
</div></header>
<main id="main" class="wrap">
${page.body}
</main>
<footer class="site"><div class="wrap">
<p>Evidence measured by Atlas; never a rating or a recommendation. Registry text is <span class="third-party">third-party</span> and shown as data. API status: preview (data and fields may change).
${meta.generatedAt ? `Data as of ${fmtTime(meta.generatedAt)}${meta.live ? '' : ' (static copy)'}.` : 'Static copy of the published data (the publish time is on the Status page).'}</p>
</div></footer>
<script src="${ASSET_PATHS.js}" defer></script>
</body>
</html>
`;
  return doc.value;
}
