import type { ServerResponse } from 'node:http';
import type { FleetState } from './state.ts';
import { after, type Timeline } from './timeline.ts';
import type { DocBehaviour, DocOverride, Expected } from './types.ts';

/**
 * Documentation pages of reviewed services (`http://docs.fleet.test:PORT/<name>`), for the docs
 * change feed. Each page follows a script around timeline.docsChangeAt:
 * - docs-unchanged: byte-identical forever;
 * - docs-cosmetic: whitespace and an inline script's build id change (nothing a reader would see);
 * - docs-price: the stated price goes from $0.01 to $0.02;
 * - docs-typo: "recieve" becomes "receive";
 * - docs-failing: answers 500 from then on.
 * `fleet.setDoc(name, …)` overrides the script (null restores it).
 */
export interface DocSpec {
  name: string;
  behaviour: DocBehaviour;
  /** The fleet endpoint the page documents. */
  service: string;
  title: string;
}

export const DEFAULT_DOCS: DocSpec[] = [
  { name: 'weather', behaviour: 'docs-unchanged', service: 'weather-forecast', title: 'Weather API' },
  { name: 'market', behaviour: 'docs-cosmetic', service: 'market-quote', title: 'Market Data API' },
  { name: 'search', behaviour: 'docs-price', service: 'search-web', title: 'Search API' },
  { name: 'tools', behaviour: 'docs-typo', service: 'tools-mcp', title: 'Tools MCP server' },
  { name: 'translate', behaviour: 'docs-failing', service: 'translate', title: 'Translate API' },
];

/** The scripted page at time `at`: status and HTML. */
export function docPage(doc: DocSpec, at: Date, tl: Timeline): DocOverride {
  const changed = after(tl.docsChangeAt, at);
  if (doc.behaviour === 'docs-failing' && changed) return { status: 500, html: '<h1>500 Internal Server Error</h1>' };
  const price = doc.behaviour === 'docs-price' && changed ? '$0.02' : '$0.01';
  const receive = doc.behaviour === 'docs-typo' && !changed ? 'recieve' : 'receive';
  const cosmetic = doc.behaviour === 'docs-cosmetic' && changed;
  const build = cosmetic ? 'b-2' : 'b-1';
  const nl = cosmetic ? '\n\n    ' : '\n  ';
  const html =
    `<!doctype html>\n<html>\n<head><title>${doc.title} documentation</title>` +
    `<script>window.__build = "${build}";</script></head>\n<body>${nl}<main>${nl}<h1>${doc.title}</h1>` +
    `${nl}<p>Each call costs ${price} in USDC on Base, paid with x402.</p>` +
    `${nl}<p>You will ${receive} a JSON response within two seconds.</p>${nl}</main>\n</body>\n</html>\n`;
  return { status: 200, html };
}

export function currentDoc(state: FleetState, doc: DocSpec): DocOverride {
  return state.docOverrides.get(doc.name) ?? docPage(doc, state.clock(), state.timeline);
}

/** reviewed/1 verdict of a documentation check (expected status 200). */
export function docExpected(page: DocOverride): Expected {
  return page.status === 200
    ? { passed: true, reason: 'ok', status: 200 }
    : { passed: false, reason: 'status_not_expected', status: page.status };
}

export function respondDoc(state: FleetState, path: string, res: ServerResponse): void {
  const doc = state.docsByName.get(decodeURIComponent(path.replace(/^\/+|\/+$/g, '')));
  const page = doc ? currentDoc(state, doc) : { status: 404, html: '<h1>Not Found</h1>' };
  res.writeHead(page.status, { 'content-type': 'text/html; charset=utf-8', 'content-length': String(Buffer.byteLength(page.html)) });
  res.end(page.html);
}
