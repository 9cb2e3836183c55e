import type { ReviewVerdict } from './review-rule.ts';

/** One-line, human summary of a change (stored in `changes.summary`). */
export function summarizeChange(added: number, removed: number, review: ReviewVerdict): string {
  const parts: string[] = [];
  if (added) parts.push(`${added} line${added === 1 ? '' : 's'} added`);
  if (removed) parts.push(`${removed} line${removed === 1 ? '' : 's'} removed`);
  const base = parts.join(', ') || 'content changed';
  return review.needs_review
    ? `${base}; touches ${review.categories.join(', ')} — the listing may need updating`
    : `${base}; no listed terms touched`;
}
