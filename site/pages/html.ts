/**
 * Safe HTML by construction. `html\`…\`` escapes every interpolated value unless it is already an
 * `Html` (built by this module) — so registry text, names and URLs can never become markup.
 * Arrays are joined; null, undefined and false render as nothing.
 */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type HtmlValue = Html | string | number | boolean | null | undefined | readonly HtmlValue[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const ESCAPABLE = /[&<>"']/;
const ESCAPABLE_ALL = /[&<>"']/g;

/**
 * Escape text for element content and quoted attribute values. Most text has nothing to escape
 * and is returned as it is: a service page escapes a few hundred values, and the test is far
 * cheaper than a replace (same result either way).
 */
export function esc(value: unknown): string {
  const s = typeof value === 'string' ? value : String(value);
  return ESCAPABLE.test(s) ? s.replace(ESCAPABLE_ALL, (ch) => ESCAPES[ch] ?? ch) : s;
}

/** Most frequent kinds first; a number's text never holds a character esc would change. */
function render(value: HtmlValue): string {
  if (value instanceof Html) return value.value;
  if (typeof value === 'string') return esc(value);
  if (typeof value === 'number') return String(value);
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) {
    let out = '';
    for (const v of value) out += render(v);
    return out;
  }
  return esc(value);
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) {
    out += render(values[i]);
    out += strings[i + 1] ?? '';
  }
  return new Html(out);
}

/** Trusted markup produced by our own code (e.g. an SVG string from a chart function). */
export const raw = (markup: string): Html => new Html(markup);

export const join = (items: readonly HtmlValue[], sep: HtmlValue = ''): Html => new Html(items.map(render).join(render(sep)));

/**
 * Only http(s) and site-relative links become hrefs; anything else (javascript:, data:) is refused
 * and rendered as plain text by the caller. Registry URLs are attacker-chosen.
 */
export function safeHref(url: unknown): string | null {
  if (typeof url !== 'string' || url.length === 0 || url.length > 2048) return null;
  if (url.startsWith('/') && !url.startsWith('//')) return url;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

/** A link when the URL is safe, plain text otherwise. External links never pass a referrer. */
export function link(url: unknown, text?: HtmlValue): Html {
  const href = safeHref(url);
  const label = text ?? (typeof url === 'string' ? url : '');
  if (!href) return html`<span class="url">${label}</span>`;
  const external = !href.startsWith('/');
  return external ? html`<a href="${href}" rel="noopener noreferrer nofollow">${label}</a>` : html`<a href="${href}">${label}</a>`;
}

/** Registry-sourced text: isolated (bdi), visibly marked as third-party, never an instruction. */
export function thirdParty(text: unknown): Html {
  if (text === null || text === undefined || text === '') return html``;
  return html`<bdi class="third-party" title="Text from a public registry: third-party, not written or checked by Atlas">${String(text)}</bdi>`;
}
