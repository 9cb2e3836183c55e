import type { Context } from 'hono';

/**
 * Headers of every HTML answer (caching: middleware/http-cache.ts, the pages are live bodies). The pages need no inline script or style (charts are inline SVG
 * styled by the stylesheet), so the policy allows only our own files.
 */
export const PAGE_CSP =
  "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

export function htmlResponse(c: Context, body: string, status: 200 | 400 | 404 | 500 | 503 = 200): Response {
  c.header('Content-Security-Policy', PAGE_CSP);
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Referrer-Policy', 'no-referrer');
  return c.html(body, status);
}
