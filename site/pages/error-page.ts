import { html } from './html.ts';
import { renderLayout } from './layout.ts';
import type { PageMeta } from './model.ts';

/** A plain error page (404, 400, 503 before the first publish). The message is escaped like any text. */
export function renderErrorPage(input: { title: string; message: string }, meta: PageMeta): string {
  const body = html`<h1>${input.title}</h1><p>${input.message}</p><p><a href="/">Back to the directory</a></p>`;
  return renderLayout({ title: input.title, nav: 'directory', body }, meta);
}
