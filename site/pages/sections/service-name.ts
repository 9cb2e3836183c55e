import { html, thirdParty, type Html } from '../html.ts';
import type { EvidenceFile, ServiceSummary } from '../model.ts';

/** A service's name: Atlas-written names as plain text, registry labels marked as third-party. */
export function serviceName(s: Pick<ServiceSummary, 'name' | 'name_source'>): Html {
  return s.name_source === 'registry' ? thirdParty(s.name) : html`${s.name}`;
}

export function tierBadge(tier: string): Html {
  return html`<span class="badge tier-${tier}" title="${tier === 'reviewed' ? "From an Atlas listing file, written from the operator's own sources" : 'From a public registry; not written up by Atlas'}">${tier}</span>`;
}

/** Latest check and freshness in one badge; colour is never the only signal (the word says it). */
export function latestBadge(s: { evidence: Pick<EvidenceFile, 'last_check' | 'freshness'> }): Html {
  const e = s.evidence;
  if (!e.last_check) return html`<span class="badge">no data</span>`;
  const verdict = e.last_check.passed ? html`<span class="badge pass">passed</span>` : html`<span class="badge fail">failed</span>`;
  const fresh = e.freshness === 'stale' ? html` <span class="badge stale">stale</span>` : html``;
  return html`${verdict}${fresh}`;
}
