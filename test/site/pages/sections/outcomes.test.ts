import { describe, expect, it } from 'vitest';
import { emptyOutcomeReportCounts, emptyOutcomeReportsByReceipt } from '../../../../site/contract/index.ts';
import { renderOutcomeReports } from '../../../../site/pages/sections/outcomes.ts';
import { renderLlmsTxt } from '../../../../site/discovery/llms.ts';

/** The service page's outcome section keeps verified reports apart, and llms.txt says what "verified" means. */
describe('outcome reports on the service page', () => {
  it('one table per receipt state, with its own counts; a file from before receipts shows the totals', () => {
    const byReceipt = emptyOutcomeReportsByReceipt();
    byReceipt.verified.success.accepted = 7;
    byReceipt.not_verified.failure.rejected = 3;
    byReceipt.no_receipt.unknown.pending = 5;
    const total = emptyOutcomeReportCounts();
    total.success.accepted = 7;
    const page = String(renderOutcomeReports({ outcome_reports: total, outcome_reports_by_receipt: byReceipt }));
    const verified = page.slice(page.indexOf('Backed by a verified receipt'), page.indexOf('With a receipt that did not verify'));
    const failed = page.slice(page.indexOf('With a receipt that did not verify'), page.indexOf('Without a receipt'));
    const none = page.slice(page.indexOf('Without a receipt'));
    expect(verified).toContain('<td>7</td>');
    expect(failed).toContain('<td>3</td>');
    expect(failed).not.toContain('<td>7</td>');
    expect(none).toContain('<td>5</td>');
    expect(page).toContain('does not show that the answer was good');
    expect(page).not.toMatch(/rate:|score:/i);
    const old = String(renderOutcomeReports({ outcome_reports: total }));
    expect(old).toContain('All reports');
    expect(old).not.toContain('verified receipt</caption>');
  });

  it('llms.txt says what a verified report proves and what it does not', () => {
    const txt = renderLlmsTxt('https://atlas.example');
    expect(txt).toContain('proves that a payment was answered with a receipt by a key that holds the payee address');
    expect(txt).toContain('does not prove that the answer was good or correct, nor who the reporter is');
    expect(txt).toContain('outcome-receipt/1');
  });
});
