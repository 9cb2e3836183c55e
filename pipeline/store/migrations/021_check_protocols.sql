-- 021_check_protocols: the payment protocols each check's answer carried (pipeline/x402/classify-402.ts),
-- and the x402 pass rule's new version.
--
-- 1. checks.protocols: for a 402 answer to a call, the protocols it carried, in the contract's order
--    (x402-v2, x402-auth-only, x402-v1, mpp, l402); an empty list when it carried none of them; NULL
--    for any other answer, for documentation pages, and for every check stored before this migration
--    (their protocols were not recorded). Still one row per (service_id, operation, slot).
ALTER TABLE checks ADD COLUMN protocols VARCHAR[];

-- 2. Operations name the rule that will judge their next checks: x402 calls move to x402-mainnet/2
--    (same pass/fail outcome, finer failure reasons; docs/design.md). Stored checks keep the id of the
--    rule that judged them.
UPDATE operations SET pass_rule = 'x402-mainnet/2' WHERE pass_rule = 'x402-mainnet/1';
