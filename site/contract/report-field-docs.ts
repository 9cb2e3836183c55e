import { OUTCOMES } from './common.ts';
import type { FieldDoc } from './field-docs.ts';
import { MODERATION_STATES } from './moderation.ts';
import { RECEIPT_STATES } from './outcome-receipt.ts';
import { RECEIPT_RULE } from './receipt-verdict.ts';
import { TERMS_DIMENSIONS } from './declared-terms.ts';

/**
 * Definitions of the weekly report body's members that its schema (ReportBody, reports.ts)
 * does not describe itself. Members with a `.describe()` text use that text.
 */
const WEEK = 'the week (week_start to figures_until)';
const c = (definition: string, unit: string | null = null): FieldDoc => ({ definition, unit, window: WEEK, source: 'computed' });

/** The week's reports of each receipt state (rule outcome-receipt/1), by outcome and by moderation state. */
const byReceipt = (): Record<string, FieldDoc> => {
  const out: Record<string, FieldDoc> = {
    'ReportBody.outcome_reports.by_receipt': c(
      `Outcome reports received in the week, kept apart by receipt state as of figures_until (rule ${RECEIPT_RULE}): verified (the seller's signed receipt passed every check), not_verified (a receipt that failed a check or was not checked yet), no_receipt. Each state counts its reports by outcome and by moderation state; the states never add up into one figure of verified evidence.`,
      'reports',
    ),
  };
  for (const s of RECEIPT_STATES) {
    const b = `ReportBody.outcome_reports.by_receipt.${s}`;
    out[b] = c(`Reports received in the week whose receipt state is ${s} as of figures_until.`, 'reports');
    out[`${b}.received`] = c(`Reports received in the week whose receipt state is ${s}.`, 'reports');
    out[`${b}.by_outcome`] = c(`Of those, by reported outcome.`, 'reports');
    for (const o of OUTCOMES) out[`${b}.by_outcome.${o}`] = c(`Reports of ${o} whose receipt state is ${s}.`, 'reports');
    out[`${b}.by_moderation`] = c(`Of those, by moderation state as of figures_until.`, 'reports');
    for (const m of MODERATION_STATES)
      out[`${b}.by_moderation.${m}`] = c(`Reports ${m} by moderation whose receipt state is ${s}.`, 'reports');
  }
  return out;
};

const kinds = (prefix: string, what: string) =>
  Object.fromEntries(
    [
      ['', `Checks of ${what}.`],
      ['.pass_rate', `passed divided by ran for ${what}; null when none ran.`],
    ].map(([k, d]) => [`ReportBody.${prefix}${k}`, c(d!, k ? 'ratio 0..1' : null)]),
  );

export const REPORT_FIELD_DOCS: Record<string, FieldDoc> = {
  'ReportBody.services': c('Tracked services at figures_until.', 'services'),
  'ReportBody.services.by_tier': c('Tracked services by tier.', 'services'),
  'ReportBody.services.by_tier.reviewed': c('Reviewed services tracked.', 'services'),
  'ReportBody.services.by_tier.discovered': c('Discovered services tracked.', 'services'),
  'ReportBody.services.by_type': c('Tracked services by type.', 'services'),
  'ReportBody.services.by_type.api_endpoint': c('api_endpoint services tracked.', 'services'),
  'ReportBody.services.by_type.task_marketplace': c('task_marketplace services tracked.', 'services'),
  'ReportBody.services.by_type.mcp_server': c('mcp_server services tracked.', 'services'),
  'ReportBody.directory': c('Directory size at figures_until.', 'services'),
  'ReportBody.checks': c('Scheduled checks for slots in the week.', 'checks'),
  ...kinds('checks.total', 'every kind'),
  'ReportBody.checks.by_kind': c('Checks by kind (reviewed/1, x402-mainnet/N, mcp-reach/3).', 'checks'),
  ...kinds('checks.by_kind.reviewed', 'reviewed services (rule reviewed/1)'),
  ...kinds('checks.by_kind.x402', 'discovered x402 endpoints (rule x402-mainnet/2, before it x402-mainnet/1)'),
  ...kinds('checks.by_kind.mcp', 'discovered MCP servers (rule mcp-reach/3)'),
  'ReportBody.listing': c('Services added to tracking and registry listing events.'),
  'ReportBody.catalogs': c(
    'Catalog listing events: each catalog listing or unlisting a discovered service (every catalog apart).',
    'events',
  ),
  'ReportBody.listing.added_by_tier': c('Services added by tier.', 'services'),
  'ReportBody.listing.added_by_tier.reviewed': c('Reviewed services added.', 'services'),
  'ReportBody.listing.added_by_tier.discovered': c('Discovered services added.', 'services'),
  'ReportBody.interval_changes': c('Check interval changes (rule schedule/1).', 'changes'),
  'ReportBody.interval_changes.by_new_interval': c('Interval changes by the interval changed to.', 'changes'),
  'ReportBody.interval_changes.by_new_interval.hourly': c('Changes to hourly.', 'changes'),
  'ReportBody.interval_changes.by_new_interval.daily': c('Changes to daily.', 'changes'),
  'ReportBody.interval_changes.by_new_interval.weekly': c('Changes to weekly.', 'changes'),
  'ReportBody.interval_changes.by_new_interval.monthly': c('Changes to monthly.', 'changes'),
  'ReportBody.payment_terms': c('Observed x402 payment-term changes.', 'changes'),
  'ReportBody.declared_terms': c(
    'Differences between declared and observed payment terms (rule declared-terms/1), counted from the raw declarations and observations as of figures_until; absent from reports frozen before they were counted.',
    'differences',
  ),
  ...Object.fromEntries(
    TERMS_DIMENSIONS.map((k) => [
      `ReportBody.declared_terms.by_dimension.${k}`,
      c(`Differences of dimension ${k} that began in the week.`, 'differences'),
    ]),
  ),
  'ReportBody.payment_terms.by_kind.price': c('Changes classified price.', 'changes'),
  'ReportBody.payment_terms.by_kind.network_added': c('Changes classified network_added.', 'changes'),
  'ReportBody.payment_terms.by_kind.network_removed': c('Changes classified network_removed.', 'changes'),
  'ReportBody.payment_terms.by_kind.asset': c('Changes classified asset.', 'changes'),
  'ReportBody.payment_terms.by_kind.pay_to': c('Changes classified pay_to.', 'changes'),
  'ReportBody.payment_terms.by_kind.scheme': c('Changes classified scheme.', 'changes'),
  'ReportBody.payment_terms.by_kind.version': c('Changes classified version.', 'changes'),
  'ReportBody.payment_terms.by_kind.other': c('Changes classified other.', 'changes'),
  'ReportBody.signed_offers': c(
    'Terms-differ events of signed offers (x402 offer-receipt): a valid 402 whose validly signed offers differ from their unsigned accepts entries when the previous valid 402 of the service had none that did (rule atlas_signed_offer_events). Absent in reports frozen before migration 062.',
    'events',
  ),
  'ReportBody.signed_offers.terms_differ_events': c('Terms-differ events in the week.', 'events'),
  'ReportBody.signed_offers.services': c('Services with at least one terms-differ event in the week.', 'services'),
  'ReportBody.documentation': c('Documentation changes of reviewed services.', 'changes'),
  'ReportBody.outcome_reports': c(
    'Outcome reports received from agents; never mixed into evidence. by_receipt keeps the reports backed by a verified receipt apart from the claims.',
    'reports',
  ),
  'ReportBody.outcome_reports.note': { definition: 'What outcome reports are and are not.', unit: null, window: null, source: 'constant' },
  'ReportBody.outcome_reports.received': c('Outcome reports received.', 'reports'),
  'ReportBody.outcome_reports.by_outcome': c('Outcome reports by reported outcome.', 'reports'),
  'ReportBody.outcome_reports.by_outcome.success': c('Reports of success.', 'reports'),
  'ReportBody.outcome_reports.by_outcome.failure': c('Reports of failure.', 'reports'),
  'ReportBody.outcome_reports.by_outcome.unknown': c('Reports of unknown outcome.', 'reports'),
  'ReportBody.outcome_reports.by_moderation': c(
    'Outcome reports received in the week by moderation state (pending, accepted, rejected) as of figures_until; only states with reports appear.',
    'reports',
  ),
  ...byReceipt(),
  'ReportBody.feedback': c('Feedback received.', 'submissions'),
  'ReportBody.feedback.received': c('Feedback submissions received.', 'submissions'),
  'ReportBody.feedback.by_kind': c('Feedback by kind.', 'submissions'),
  'ReportBody.feedback.by_kind.missing_service': c('Feedback of kind missing_service.', 'submissions'),
  'ReportBody.feedback.by_kind.missing_metric': c('Feedback of kind missing_metric.', 'submissions'),
  'ReportBody.feedback.by_kind.feature_request': c('Feedback of kind feature_request.', 'submissions'),
  'ReportBody.feedback.by_kind.wrong_data': c('Feedback of kind wrong_data.', 'submissions'),
  'ReportBody.feedback.by_kind.unclear_docs': c('Feedback of kind unclear_docs.', 'submissions'),
  'ReportBody.feedback.by_kind.other': c('Feedback of kind other.', 'submissions'),
};
