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

/** Escape text for element content and quoted attribute values. */
export function esc(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (ch) => ESCAPES[ch] ?? ch);
}

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return esc(value);
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) out += render(values[i]) + (strings[i + 1] ?? '');
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
