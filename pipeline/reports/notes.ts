/** Explanatory texts served with every report (the `notes` member; an object of strings keyed by topic). */
export const REPORT_NOTES: Record<string, string> = {
  report:
    'A weekly report is a fixed snapshot of the week Monday 00:00 UTC to the next Monday, frozen once the week has ended. Corrections are returned alongside it and never change its figures. The id current gives provisional week-to-date figures.',
  checks:
    'Checks are counted by kind of pass rule: reviewed (reviewed/1), x402 (x402-mainnet/N), mcp (mcp-reach/3). ran counts checks for slots in the week that ran before its end; missed counts scheduled checks that did not run, against the interval in force at the time, and is never counted as a failure.',
  directory:
    'Directory size is the number of services whose latest directory evaluation before the end of the week placed them in the directory.',
  payment_terms:
    'A payment-term change is a valid x402 payment request whose terms differ from the previous valid one of the same endpoint; one change can have several kinds.',
  declared_terms:
    'A declared-against-observed difference (rule declared-terms/1) is a run of comparisons at which what a catalog, the seller document or our listing declares about a payment term (price, maximum, network, asset, scheme, receiving address) differs from the live 402; it is counted in the week it began and in the week it ended. A measurement, never a rating.',
  outcome_reports:
    "Outcome reports are reports sent by agents, moderated before any use; they are counted as received and never turned into rates or scores. A report that carries the seller's signed x402 receipt is counted as verified only when the receipt passed every check (signature, signer holding an observed payee address, resource, issue time, not reused); the rest stay claims, counted apart.",
};
